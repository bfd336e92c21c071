#!/usr/bin/env python3
"""Templates of the bad-input corpus (docs/fuzzing.md, The bad-input corpus).

cases() yields every generated case: a moesim command line, the files it reads and what the one
`moesim: error:` line must name. The assembly cases are derived from isa_spec/isa.yaml (every
instruction: a wrong mnemonic, operand count, operand kind, register, immediate, reserved value),
so a new instruction gets its cases without an edit here; the output guard collisions are
derived from the CLI's own option tables (`moesim help-files`), so a new file flag gets its cases
too. run_corpus.py runs them; `gen_cases.py --write DIR --moesim BIN` writes them as .case files
for reading.
"""
import collections
import copy
import json
import os
import struct
import subprocess
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))

# `env`: variables set for the run ({NAME: VALUE}); `limits`: None for the corpus's defaults, or
# Limits(seconds, megabytes) the case must stay within (CPU seconds, peak resident memory).
Case = collections.namedtuple('Case', 'name args files where env limits', defaults=({}, None))
Limits = collections.namedtuple('Limits', 'seconds megabytes')
# The bound of the hostile cases: each refused within 2 s of CPU and 100 MB of memory.
HOSTILE = Limits(2.0, 100)


class Dir:
    """A directory to create (empty) among a case's files."""


class Fifo:
    """A named pipe to create among a case's files (nothing ever writes to it)."""


class Sparse:
    """A file of `size` zero bytes, made sparse (a size bomb that costs no disk)."""

    def __init__(self, size):
        self.size = size


class Link:
    """A symbolic link to `target` (relative to the link's folder)."""

    def __init__(self, target):
        self.target = target


class HardLink:
    """A hard link to another file of the case (`target`, relative to the case folder)."""

    def __init__(self, target):
        self.target = target


def _isa():
    with open(os.path.join(ROOT, 'isa_spec', 'isa.yaml')) as f:
        return yaml.safe_load(f)


# ---------------------------------------------------------------- assembly

VALID = 'S_ADDI_INT gp1, gp0, 1'
# How the bad program reaches the assembler (the flag path prefixes the message).
ASM_COMMANDS = [
    ['asm', 'in.asm'],
    ['asm', 'in.asm', '-o', 'out.hex'],
    ['run', '--engine', 'golden', '--program', 'in.asm'],
    ['cosim', '--program', 'in.asm', '--quiet'],
]


def _asm_case(name, k, lines, bad_line, col, why=None):
    """A program of `lines` whose line `bad_line` (1-based) has the error at column `col`."""
    text = '\n'.join(lines) + '\n'
    where = [f'in.asm:{bad_line}:{col}']
    if why:
        where.append(why)
    return Case('asm/' + name, list(ASM_COMMANDS[k % len(ASM_COMMANDS)]), {'in.asm': text}, where)


def _operand_text(kinds, op):
    kind = op['kind']
    if kind in ('gp', 'fp', 'addr'):
        return kinds[kind]['prefix'] + '1'
    if kind == 'zero':
        return '0'
    return str(op['allowed'][0]) if 'allowed' in op else '1'


def asm_cases():
    isa = _isa()
    kinds, fields = isa['operand_kinds'], isa['fields']
    k = 0
    for ins in isa['instructions']:
        m = ins['mnemonic']
        ops = ins.get('operands', [])
        required = [o for o in ops if not o.get('optional')]

        def program(operands, indent):
            """(lines, bad line number, column of the mnemonic, columns of the operands)."""
            before = [VALID] * (k % 3)
            if k % 2:
                before.insert(0, '; @stage=router_topk')
            head = ' ' * indent + m
            cols, text = [], head
            for i, t in enumerate(operands):
                text += ' ' if i == 0 else ', '
                cols.append(len(text) + 1)
                text += t
            return before + [text, VALID], len(before) + 1, indent + 1, cols

        good = [_operand_text(kinds, o) for o in ops]
        indent = k % 3
        # Unknown mnemonic (every other instruction).
        if k % 2 == 0:
            lines, ln, mcol, _ = program(good, indent)
            lines[ln - 1] = lines[ln - 1].replace(m, m + 'X', 1)
            yield _asm_case(f'{m}.unknown_mnemonic', k, lines, ln, mcol, 'unknown mnemonic')
        k += 1
        # One operand too many.
        lines, ln, _, cols = program(good + ['gp1'], indent)
        yield _asm_case(f'{m}.extra_operand', k, lines, ln, cols[-1], 'expects')
        k += 1
        # One required operand too few.
        if required:
            lines, ln, mcol, _ = program(good[:len(required) - 1], indent)
            yield _asm_case(f'{m}.missing_operand', k, lines, ln, mcol, 'expects')
            k += 1
        for i, op in enumerate(ops):
            kind = op['kind']
            width = fields[op['field']]['hi'] - fields[op['field']]['lo'] + 1
            bad = []
            if kind in ('gp', 'fp', 'addr'):
                other = {'gp': 'f1', 'fp': 'gp1', 'addr': 'gp1'}[kind]
                bad.append(('wrong_kind', other, 'expected'))
                bad.append(('no_such_register', kinds[kind]['prefix'] + str(kinds[kind]['count']),
                            'does not exist'))
                if i == 0:
                    bad.append(('register_junk', kinds[kind]['prefix'] + '1x', 'expected'))
            elif kind == 'zero':
                bad.append(('not_zero', '1', 'literal 0'))
                bad.append(('register_for_zero', 'gp1', 'expected'))
            else:
                bad.append(('register_for_imm', 'gp1', 'expected an immediate'))
                bad.append(('too_wide', hex(1 << width), 'does not fit'))
                if i % 2 == 0:
                    bad.append(('over_64_bits', '99999999999999999999999', 'too large'))
                else:
                    bad.append(('empty_hex', '0x', 'expected an immediate'))
                if 'allowed' in op:
                    v = next(v for v in range(1 << width) if v not in op['allowed'])
                    bad.append(('reserved', str(v), 'reserved'))
            # Two of the operand's mutations, rotating over the instructions.
            picked = [bad[(k + j) % len(bad)] for j in range(min(2, len(bad)))]
            for tag, text, why in picked:
                operands = list(good)
                operands[i] = text
                lines, ln, _, cols = program(operands, indent)
                yield _asm_case(f'{m}.{op["name"]}.{tag}', k, lines, ln, cols[i], why)
                k += 1

    # Syntax that belongs to no instruction.
    syntax = [
        ('word_directive_typo', '.wordx 1', 1, 'directive'),
        ('word_without_value', '.word', 6, '.word expects one number'),
        ('word_too_wide', '.word 0x100000000', 7, '32 bits'),
        ('word_two_values', '.word 1 2', 9, "unexpected '2'"),
        ('word_not_number', '.word gp1', 7, '.word expects one number'),
        ('other_directive', '.org 0', 1, 'directive'),
        ('stage_empty', '; @stage=', 10, 'empty stage name'),
        ('stage_unknown', '; @stage=nowhere', 10, "unknown stage 'nowhere'"),
        ('stage_other', '; @stage=other', 10, "'other'"),
        ('stage_misspelt', '; @stag=gather', 3, 'malformed marker'),
        ('stage_spaced', '; @stage = gather', 3, 'malformed marker'),
        ('marker_after_code', VALID + ' ; @stage=gather', 24, 'own'),
        ('pair_two_fields', '; @pair=1,2', 9, 'TOKEN,SLOT,EXPERT'),
        ('pair_letters', '; @pair=a,b,c', 9, "token 'a'"),
        ('pair_signed', '; @pair=-1,0,0', 9, "token '-1'"),
        ('pair_too_large', '; @pair=99999999999,0,0', 9, 'too large'),
        ('pair_empty_address', '; @pair=1,2,int[]', 9, 'expert'),
        ('pair_address_letters', '; @pair=1,2,int[x]', 9, 'INT SRAM address'),
        ('double_comma', 'S_ADDI_INT gp1,, 1', 16, "unexpected ','"),
        ('trailing_comma', 'S_ADDI_INT gp1, gp0, 1,', 24, 'missing operand'),
        ('parenthesis', 'S_ADDI_INT(gp1, gp0, 1)', 11, "unexpected '('"),
        ('no_commas', 'S_ADDI_INT gp1 gp0 1', 16, "unexpected 'gp0 1'"),
        ('number_line', '1234', 1, "unknown mnemonic '1234'"),
        ('register_line', 'gp1', 1, "unknown mnemonic 'gp1'"),
        ('lowercase_mnemonic', 's_addi_int gp1, gp0, 1', 1, "unknown mnemonic"),
        ('uppercase_register', 'S_ADDI_INT GP1, gp0, 1', 12, "got 'GP1'"),
        ('negative_immediate', 'S_ADDI_INT gp1, gp0, -1', 22, "unexpected '-'"),
        ('decimal_point', 'S_ADDI_INT gp1, gp0, 1.5', 23, "unexpected '.5'"),
        ('octal_looking', 'S_ADDI_INT gp1, gp0, 0o17', 22, 'expected an immediate'),
        ('binary_looking', 'S_ADDI_INT gp1, gp0, 0b1', 22, 'expected an immediate'),
        ('hex_letters_g', 'S_ADDI_INT gp1, gp0, 0xG', 22, 'expected an immediate'),
        ('register_hex_index', 'S_ADDI_INT gp0x1, gp0, 1', 12, 'expected a gp register'),
        ('register_huge_index', 'S_ADDI_INT gp99999999999999999999999, gp0, 1', 14, 'too large'),
        ('non_ascii', 'S_ADDI_INT gp1, gp0, \u00b9', 22, '\\xC2'),
        ('tab_then_junk', '\tS_ADDI_INT\tgp1,\tgp0,\t1\t#', 25, "unexpected '#'"),
        ('semicolon_marker_junk', ';@', 2, 'malformed marker'),
    ]
    for i, (tag, line, col, why) in enumerate(syntax):
        lines = [VALID] * (i % 4) + [line]
        yield _asm_case('syntax.' + tag, i, lines, len(lines), col, why)
    # Windows line ends: the error is still on line 3 at the same column.
    yield Case('asm/syntax.crlf', ['asm', 'in.asm'],
               {'in.asm': (VALID + '\r\n') * 2 + 'S_ADDI_INT gp1, gp0, gp2\r\n'}, ['in.asm:3:22'])
    # A NUL byte inside an instruction.
    yield Case('asm/syntax.nul_byte', ['asm', 'in.asm'],
               {'in.asm': b'S_ADDI_INT gp1, gp0\x00, 1\n'}, ['in.asm:1:20'])
    # A 100,000-character line.
    yield Case('asm/syntax.long_line', ['asm', 'in.asm'],
               {'in.asm': 'S_ADDI_INT gp1, gp0, ' + '9' * 100000 + '\n'}, ['in.asm:1:22', 'too large'])
    # A binary file.
    yield Case('asm/syntax.binary', ['asm', 'in.asm'],
               {'in.asm': bytes(range(256))}, ['in.asm:1:'])


# ---------------------------------------------------------------- hex and stages

HEX_COMMANDS = [
    ['disasm', 'p.hex'],
    ['run', '--engine', 'golden', '--program', 'p.hex'],
    ['cosim', '--program', 'p.hex', '--quiet'],
]


def hex_cases():
    good = '0x0000006A\n'
    k = 0
    words = [
        ('g_digit', '0xG000006A', 'expected one 32-bit hex word'),
        ('nine_digits', '0x10000006A', 'expected one 32-bit hex word'),
        ('prefix_only', '0x', 'expected one 32-bit hex word'),
        ('two_words', '0x1 0x2', 'expected one 32-bit hex word'),
        ('negative', '-1', 'expected one 32-bit hex word'),
        ('decimal_exponent', '1e5x', 'expected one 32-bit hex word'),
        ('assembly_text', 'S_ADDI_INT gp1, gp0, 1', 'expected one 32-bit hex word'),
        ('comment', '; a comment', 'expected one 32-bit hex word'),
        ('plus_sign', '+0x1', 'expected one 32-bit hex word'),
        ('non_ascii', '0x\u00b9', 'expected one 32-bit hex word'),
        ('word_directive', '.word 0x1', 'expected one 32-bit hex word'),
        ('trailing_junk', '0x0000006Az', 'expected one 32-bit hex word'),
    ]
    for i, (tag, line, why) in enumerate(words):
        text = good * (i % 3) + line + '\n' + good
        yield Case(f'hex/word.{tag}', list(HEX_COMMANDS[k % 3]), {'p.hex': text},
                   [f'p.hex:{i % 3 + 1}', why])
        k += 1
    two = good * 2
    stages = [
        ('unknown_stage', 'other\nnowhere\n', 'p.stages:2', "unknown stage 'nowhere'"),
        ('too_many', 'other\nother\ngather\n', 'p.stages:3', 'more stages'),
        ('too_few', 'gather\n', 'p.stages', '1 stages for 2 words'),
        ('pair_bad', 'other @pair=1,2\nother\n', 'p.stages:1', 'TOKEN,SLOT,EXPERT'),
        ('pair_letters', 'other\ngather @pair=x,0,0\n', 'p.stages:2', "token 'x'"),
        ('pair_too_large', 'gather @pair=0,0,4294967296\nother\n', 'p.stages:1', 'too large'),
        ('pair_address', 'gather @pair=0,0,int[-1]\nother\n', 'p.stages:1', 'INT SRAM address'),
        ('stage_number', '0\n1\n', 'p.stages:1', "unknown stage '0'"),
        ('stage_case', 'Gather\nother\n', 'p.stages:1', "unknown stage 'Gather'"),
        ('binary', '\x01\x02\n\x03\n', 'p.stages:1', 'unknown stage'),
    ]
    for tag, text, where, why in stages:
        yield Case(f'hex/stages.{tag}', list(HEX_COMMANDS[k % 3]), {'p.hex': two, 'p.stages': text},
                   [where, why])
        k += 1
    for cmd in HEX_COMMANDS[1:]:
        name = cmd[0]
        yield Case(f'hex/{name}.empty_program', cmd, {'p.hex': '\n\n'}, ['--program p.hex', 'no instructions'])
        yield Case(f'hex/{name}.too_long', cmd + ['--machine', 'tiny'],
                   {'p.hex': good * 70000}, ['--program p.hex', 'IMEM_WORDS'])
        yield Case(f'hex/{name}.missing_file', cmd[:-1] + ['nothere.hex'], {}, ['nothere.hex'])
        yield Case(f'hex/{name}.directory', cmd[:-1] + ['d.hex'], {'d.hex': Dir()}, ['d.hex'])
        yield Case(f'hex/{name}.missing_asm', cmd[:-1] + ['nothere.asm'], {}, ['nothere.asm'])
    yield Case('hex/disasm.missing_file', ['disasm', 'nothere.hex'], {}, ['nothere.hex'])
    yield Case('hex/disasm.directory', ['disasm', 'd'], {'d': Dir()}, ['d'])
    yield Case('hex/asm.missing_file', ['asm', 'nothere.asm'], {}, ['nothere.asm'])
    yield Case('hex/asm.directory', ['asm', 'd.asm'], {'d.asm': Dir()}, ['d.asm'])


# ---------------------------------------------------------------- conformance case files

CASE_ASM = 'S_ADDI_INT gp1, gp0, 5\n'
CASE_OK = 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: 5}\n'


def _suite_case(name, yaml_text, where, asm=CASE_ASM, mnemonic='S_ADDI_INT', extra=None,
                args=()):
    files = {f's/{mnemonic}/c.asm': asm, f's/{mnemonic}/c.yaml': yaml_text}
    if asm is None:
        del files[f's/{mnemonic}/c.asm']
    if yaml_text is None:
        del files[f's/{mnemonic}/c.yaml']
    files.update(extra or {})
    return Case('suite/' + name, ['conformance', '--engine', 'golden', '--suite', 's', '--quiet']
                + list(args), files, where)


def suite_cases():
    y = 's/S_ADDI_INT/c.yaml'
    bad_yaml = [
        ('unknown_top_key', CASE_OK + 'expected: 1\n', 'expected'),
        ('unknown_expect_key', CASE_OK + '  retire: 1\n', 'retire'),
        ('unknown_trap_key', CASE_OK + '  trap: {cause: illegal_instruction, pc: 0, why: x}\n', 'why'),
        ('unknown_trap_cause', CASE_OK + '  trap: {cause: no_such_trap, pc: 0}\n', 'no_such_trap'),
        ('trap_without_pc', CASE_OK + '  trap: {cause: illegal_instruction}\n', 'pc'),
        ('retired_negative', 'expect:\n  retired: -1\n  cycles: 1\n  regs: {gp1: 5}\n', 'retired'),
        ('retired_string', 'expect:\n  retired: one\n  cycles: 1\n  regs: {gp1: 5}\n', 'retired'),
        ('retired_float', 'expect:\n  retired: 1.5\n  cycles: 1\n  regs: {gp1: 5}\n', 'retired'),
        ('retired_huge', 'expect:\n  retired: 99999999999999999999999\n  cycles: 1\n  regs: {gp1: 5}\n', 'retired'),
        ('cycles_list', 'expect:\n  retired: 1\n  cycles: [1]\n  regs: {gp1: 5}\n', 'cycles'),
        ('missing_expect', 'budget: 3\n', 'expect'),
        ('regs_unknown', 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: 5, gp16: 0}\n', 'gp16'),
        ('regs_gp0', 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: 5, gp0: 0}\n', 'gp0'),
        ('regs_too_wide', 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: 0x100000000}\n', 'gp1'),
        ('regs_negative', 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: -5}\n', 'gp1'),
        ('regs_fp_not_bf16', 'expect:\n  retired: 1\n  cycles: 1\n  regs: {gp1: 5, f1: 0.1}\n', 'f1'),
        ('regs_list', 'expect:\n  retired: 1\n  cycles: 1\n  regs: [gp1, 5]\n', 'regs'),
        ('machine_unknown', 'machine: huge\n' + CASE_OK, 'huge'),
        ('machine_number', 'machine: 3\n' + CASE_OK, 'machine'),
        ('budget_zero', 'budget: 0\n' + CASE_OK, 'budget'),
        ('budget_negative', 'budget: -3\n' + CASE_OK, 'budget'),
        ('budget_string', 'budget: lots\n' + CASE_OK, 'budget'),
        ('dma_queue_too_large', 'dma_queue: 4\n' + CASE_OK, 'dma_queue'),
        ('dma_queue_negative', 'dma_queue: -1\n' + CASE_OK, 'dma_queue'),
        ('dma_queue_string', 'dma_queue: deep\n' + CASE_OK, 'dma_queue'),
        ('dma_queue_list', 'dma_queue: [2]\n' + CASE_OK, 'dma_queue'),
        ('stalls_unknown_cause', CASE_OK + '  stalls: {rar: 0}\n', 'rar'),
        ('stalls_none_cause', CASE_OK + '  stalls: {none: 0}\n', 'none'),
        ('stalls_negative', CASE_OK + '  stalls: {raw: -1}\n', 'raw'),
        ('stalls_list', CASE_OK + '  stalls: [raw, 1]\n', 'stalls'),
        ('init_unknown_space', 'init:\n  dram: [{addr: 0, bytes: [1]}]\n' + CASE_OK, 'dram'),
        ('init_not_list', 'init:\n  hbm: {addr: 0, bytes: [1]}\n' + CASE_OK, 'hbm'),
        ('init_vram_short_row', 'init:\n  vram: [{row: 0, bf16: [1.0, 2.0]}]\n' + CASE_OK, 'vram'),
        ('init_vram_row_out_of_range', 'init:\n  vram: [{row: 99999999, fill: 1.0}]\n' + CASE_OK, 'vram'),
        ('init_vram_not_bf16', 'init:\n  vram: [{row: 0, fill: 0.1}]\n' + CASE_OK, 'vram'),
        ('init_vram_nan_number', 'init:\n  vram: [{row: 0, fill: .nan}]\n' + CASE_OK, 'vram'),
        ('init_vram_bad_pattern', 'init:\n  vram: [{row: 0, fill: "0x1FFFF"}]\n' + CASE_OK, 'vram'),
        ('init_vram_rows_zero', 'init:\n  vram: [{row: 0, fill: 1.0, rows: 0}]\n' + CASE_OK, 'rows'),
        ('init_fp_sram_out_of_range', 'init:\n  fp_sram: [{addr: 99999999, bf16: [1.0]}]\n' + CASE_OK, 'fp_sram'),
        ('init_int_sram_too_wide', 'init:\n  int_sram: [{addr: 0, u32: [0x100000000]}]\n' + CASE_OK, 'int_sram'),
        ('init_int_sram_string', 'init:\n  int_sram: [{addr: 0, u32: [x]}]\n' + CASE_OK, 'int_sram'),
        ('init_hbm_byte_too_wide', 'init:\n  hbm: [{addr: 0, bytes: [256]}]\n' + CASE_OK, 'hbm'),
        ('init_hbm_out_of_range', 'init:\n  hbm: [{addr: 0xFFFFFFFFFFFF, bytes: [1]}]\n' + CASE_OK, 'hbm'),
        ('init_hbm_addr_overflow', 'init:\n  hbm: [{addr: 0xFFFFFFFFFFFFFFFF, bytes: [1, 2]}]\n' + CASE_OK, 'hbm'),
        ('init_mram_short', 'init:\n  mram: [{row: 0, bytes: [1, 2]}]\n' + CASE_OK, 'mram'),
        ('init_overlap', 'init:\n  hbm: [{addr: 0, bytes: [1, 2]}, {addr: 1, bytes: [3]}]\n' + CASE_OK, 'hbm'),
        ('init_both_forms', 'init:\n  vram: [{row: 0, fill: 1.0, bf16: [1.0]}]\n' + CASE_OK, 'vram'),
        ('init_region_unknown_key', 'init:\n  hbm: [{addr: 0, bytes: [1], stride: 2}]\n' + CASE_OK, 'stride'),
        ('init_row_for_sram', 'init:\n  fp_sram: [{row: 0, bf16: [1.0]}]\n' + CASE_OK, 'fp_sram'),
        ('mem_unknown_space', CASE_OK + '  mem: {dram: []}\n', 'dram'),
        ('mem_overlap', CASE_OK + '  mem:\n    int_sram: [{addr: 0, u32: [1, 2]}, {addr: 1, u32: [2]}]\n', 'int_sram'),
        ('duplicate_key', CASE_OK + '  retired: 1\n', 'retired'),
        ('yaml_syntax', 'expect: {retired: 1\n', 'c.yaml:'),
        ('yaml_tab_indent', 'expect:\n\tretired: 1\n', 'c.yaml:'),
        ('yaml_scalar', 'just text\n', 'c.yaml'),
        ('yaml_list', '- 1\n- 2\n', 'c.yaml'),
        ('yaml_empty', '', 'c.yaml'),
        ('yaml_anchor_unknown', 'expect: *nothere\n', 'c.yaml'),
        ('yaml_binary', '\x00\x01\x02', 'c.yaml'),
        ('yaml_two_documents', CASE_OK + '---\n' + CASE_OK, 'a second YAML document'),
    ]
    for tag, text, key in bad_yaml:
        yield _suite_case(tag, text, [y, key] if key != y else [y])
    yield _suite_case('asm_error', CASE_OK, ['s/S_ADDI_INT/c.asm:2:12'],
                      asm=CASE_ASM + 'S_ADDI_INT gp99, gp0, 1\n')
    yield _suite_case('asm_without_yaml', None, ['c.asm'])
    yield _suite_case('yaml_without_asm', CASE_OK, ['c.yaml'], asm=None)
    yield _suite_case('stray_file', CASE_OK, ['notes.txt'], extra={'s/S_ADDI_INT/notes.txt': 'x'})
    yield _suite_case('unknown_mnemonic_dir', CASE_OK, ['S_ADDI_INTX'], mnemonic='S_ADDI_INTX')
    yield _suite_case('bad_waivers', CASE_OK, ['waivers.yaml'],
                      extra={'s/waivers.yaml': '- {item: "no such item", reason: x}\n'})
    yield _suite_case('waivers_syntax', CASE_OK, ['waivers.yaml'],
                      extra={'s/waivers.yaml': '- {item: "V_TOPK", reason: x\n'})
    yield _suite_case('waivers_no_reason', CASE_OK, ['waivers.yaml'],
                      extra={'s/waivers.yaml': '- {item: "V_TOPK"}\n'})
    # Flags of `moesim conformance`.
    yield _suite_case('filter_invalid', CASE_OK, ['--filter'], args=['--filter', '('])
    yield _suite_case('filter_no_match', CASE_OK, ['--filter'], args=['--filter', 'NOTHING'])
    yield _suite_case('filter_huge', CASE_OK, ['--filter'], args=['--filter', 'a' * 100000])
    yield _suite_case('waive_unknown', CASE_OK, ['--waive'], args=['--waive', 'nothing'])
    yield _suite_case('machine_unknown_flag', CASE_OK, ['--machine'], args=['--machine', 'huge'])
    yield _suite_case('engine_unknown', CASE_OK, ['--engine'], args=['--engine', 'verilog'])
    yield _suite_case('junit_into_missing_dir', CASE_OK, ['--junit'], args=['--junit', 'no/dir/j.xml'])
    yield _suite_case('junit_is_directory', CASE_OK, ['--junit'], args=['--junit', 's'])
    yield _suite_case('junit_overwrites_case', CASE_OK, ['--junit'],
                      args=['--junit', 's/S_ADDI_INT/c.yaml'])
    yield Case('suite/suite_missing', ['conformance', '--engine', 'golden', '--suite', 'nothere'],
               {}, ['--suite'])
    yield Case('suite/suite_is_file', ['conformance', '--engine', 'golden', '--suite', 'f'],
               {'f': 'x'}, ['--suite'])


# ---------------------------------------------------------------- config.json

def _config_cases():
    base_dir = os.path.join(ROOT, 'testbenches', 'models')
    k = 0
    for model in ('qwen3-30b-a3b', 'gpt-oss-20b', 'deepseek-v3', 'mixtral-8x7b', 'qwen1.5-moe-a2.7b',
                  'llama-4-scout', 'deepseek-v2-lite'):
        with open(os.path.join(base_dir, model + '.config.json')) as f:
            base = json.load(f)
        cfg = base.get('text_config', base)
        counts = [key for key in ('hidden_size', 'intermediate_size', 'moe_intermediate_size',
                                  'num_experts', 'num_local_experts', 'n_routed_experts',
                                  'num_experts_per_tok') if isinstance(cfg.get(key), int)
                  and key in _REQUIRED.get(cfg.get('model_type', base.get('model_type')), ())]
        mutations = []
        for key in counts:
            kinds = [(key, 0, 'zero'), (key, -1, 'negative'), (key, 1.5, 'fraction'),
                     (key, '64', 'string'), (key, True, 'bool'), (key, 1 << 40, 'huge'),
                     (key, [64], 'list'), (key, {'v': 64}, 'object')]
            # Every model gets the zero and the wrong type; the rest rotate over the models.
            mutations += kinds[:2] + [kinds[2 + (k + j) % 6] for j in range(2)]
            k += 1
        for key, value, _ in mutations:
            yield model, key, value
        for key, value in (('hidden_act', 'gelu'), ('model_type', 'llama'),
                           ('hidden_act', 3), ('model_type', None)):
            if key == 'model_type' and value is None and 'text_config' in base:
                continue  # the outer model_type names it
            yield model, key, value


_REQUIRED = {
    'qwen3_moe': ('hidden_size', 'moe_intermediate_size', 'num_experts', 'num_experts_per_tok'),
    'qwen2_moe': ('hidden_size', 'moe_intermediate_size', 'num_experts', 'num_experts_per_tok'),
    'gpt_oss': ('hidden_size', 'intermediate_size', 'num_local_experts', 'num_experts_per_tok'),
    'mixtral': ('hidden_size', 'intermediate_size', 'num_local_experts', 'num_experts_per_tok'),
    'deepseek_v3': ('hidden_size', 'moe_intermediate_size', 'n_routed_experts',
                    'num_experts_per_tok'),
    'deepseek_v2': ('hidden_size', 'moe_intermediate_size', 'n_routed_experts',
                    'num_experts_per_tok'),
    'llama4_text': ('hidden_size', 'intermediate_size', 'num_local_experts', 'num_experts_per_tok'),
    'llama4': ('hidden_size', 'intermediate_size', 'num_local_experts', 'num_experts_per_tok'),
}

# A shape every machine preset holds (the models' own sizes do not fit `default`).
SHAPE = ['--hidden', '64', '--intermediate', '64']
CONFIG_COMMANDS = [
    ['run', '--engine', 'golden', '--tokens', '1'] + SHAPE + ['--model', 'c.json'],
    ['cosim', '--tokens', '1', '--quiet'] + SHAPE + ['--model', 'c.json'],
    ['bench', '--engine', 'golden', '--token-counts', '1'] + SHAPE + ['--model', 'c.json'],
]


def config_cases():
    base_dir = os.path.join(ROOT, 'testbenches', 'models')
    k = 0
    for model, key, value in _config_cases():
        with open(os.path.join(base_dir, model + '.config.json')) as f:
            base = json.load(f)
        cfg = base.get('text_config', base)
        if value is None:
            del cfg[key]
            tag = 'missing'
        else:
            cfg[key] = value
            tag = type(value).__name__ + '_' + str(value)[:12].replace(' ', '')
        yield Case(f'config/{model}.{key}.{tag}', list(CONFIG_COMMANDS[k % 3]),
                   {'c.json': json.dumps(base, indent=2)}, ['c.json', key])
        k += 1
    # Values a key takes but the layer cannot hold.
    dsv3 = os.path.join(base_dir, 'deepseek-v3.config.json')
    with open(dsv3) as f:
        v3 = json.load(f)
    gpt = os.path.join(base_dir, 'gpt-oss-20b.config.json')
    with open(gpt) as f:
        oss = json.load(f)
    specials = [
        (v3, 'routed_scaling_factor', 1e300), (v3, 'routed_scaling_factor', 0),
        (v3, 'routed_scaling_factor', -2.5), (v3, 'routed_scaling_factor', 'big'),
        (v3, 'n_group', -1), (v3, 'topk_group', 'x'), (v3, 'norm_topk_prob', 'yes'),
        (v3, 'scoring_func', 'tanh'), (v3, 'topk_method', 7),
        (oss, 'swiglu_limit', -7), (oss, 'swiglu_limit', 0), (oss, 'swiglu_limit', 1e300),
        (oss, 'swiglu_limit', 'seven'), (oss, 'moe_expert_bias', 1), (oss, 'router_mode', 'x'),
    ]
    for i, (base, key, value) in enumerate(specials):
        d = json.loads(json.dumps(base))
        d[key] = value
        yield Case(f'config/special.{i:02d}.{key}', list(CONFIG_COMMANDS[i % 3]),
                   {'c.json': json.dumps(d, indent=2)}, ['c.json', key])
    text = open(dsv3).read()
    syntax = [
        ('trailing_comma', text.replace('}', ',}', 1) if text.rstrip().endswith('}') else text),
        ('truncated', text[:len(text) // 2]),
        ('comment', '// config\n' + text),
        ('single_quotes', text.replace('"', "'")),
        ('empty', ''),
        ('array', '[' + text + ']'),
        ('number', '42'),
        ('nan', text.replace('"hidden_size":', '"hidden_size": NaN, "x":', 1)),
        ('binary', '\x00\xff\xfe'),
        ('deep_nesting', '[' * 100000 + ']' * 100000),
        ('duplicate_hidden', text.replace('{', '{\n  "hidden_size": 64,', 1)),
        ('bom_then_junk', '\ufeff{"model_type": ]'),
    ]
    for i, (tag, body) in enumerate(syntax):
        yield Case(f'config/syntax.{tag}', list(CONFIG_COMMANDS[i % 3]), {'c.json': body}, ['c.json'])
    yield Case('config/missing_file', list(CONFIG_COMMANDS[0][:-1]) + ['nothere.json'], {},
               ['nothere.json'])
    yield Case('config/directory', list(CONFIG_COMMANDS[0][:-1]) + ['d.json'], {'d.json': Dir()},
               ['d.json'])


# ---------------------------------------------------------------- flags

P = 'p.asm'
STAGE_MAP = 'rules:\n  - {stage: gather, any: [gather]}\n'
PROGRAM = {P: 'S_ADDI_INT gp1, gp0, 1\n'}


def flag_cases():
    numeric = {
        'run': ['--tokens', '--hidden', '--intermediate', '--shared-intermediate', '--seed',
                '--max-instructions'],
        'cosim': ['--tokens', '--hidden', '--intermediate', '--shared-intermediate', '--seed',
                  '--max-instructions', '--history'],
        'bench': ['--hidden', '--intermediate', '--seed', '--max-instructions', '--token-counts',
                  '--repeat'],
    }
    prefix = {'run': ['run', '--engine', 'golden'], 'cosim': ['cosim', '--quiet'],
              'bench': ['bench', '--engine', 'golden']}
    shape = {'--hidden': ['--intermediate', '64'], '--intermediate': ['--hidden', '64']}
    values = [('negative', '-1'), ('letters', 'abc'), ('fraction', '1.5'), ('empty', ''),
              ('overflow', '18446744073709551616'), ('huge', '99999999999999999999999999'),
              ('hex_junk', '0xZZ'), ('spaces', ' 1 2')]
    for cmd, flags in numeric.items():
        for n, flag in enumerate(flags):
            for tag, v in [values[(n + j) % len(values)] for j in range(5)]:
                yield Case(f'flags/{cmd}{flag}.{tag}', prefix[cmd] + shape.get(flag, SHAPE) + [flag, v],
                           {}, [flag])
    enums = [
        (['run', '--engine'], ['verilog', '', 'both', 'GOLDEN']),
        (['bench', '--engine'], ['verilog', '']),
        (['conformance', '--engine'], ['all']),
        (['cosim', '--topk-policy'], ['hardwired', '']),
        (['cosim', '--lowering'], ['token']),
        (['run', '--engine', 'golden', '--machine'], ['huge', '', 'DEFAULT']),
        (['cosim', '--machine'], ['bench2']),
        (['bench', '--engine', 'golden', '--machine'], ['x']),
        (['run', '--engine', 'golden', '--model'], ['gpt-5', '', 'nothere.json']),
        (['cosim', '--model'], ['mixtral']),
        (['cosim', '--flip-bit'], ['x', '1:2', 'golden:0:0:0', '99999999999999999999:0:0:0']),
        (['cosim', '--plant-fault'], ['no-such-fault']),
        (['run', '--engine', 'golden', '--progress-after'], ['-1', 'x']),
    ]
    for args, bad in enums:
        flag = args[-1]
        for i, v in enumerate(bad):
            yield Case(f'flags/{args[0]}{flag}.bad{i}', args[:1] + SHAPE + args[1:] + [v], {}, [flag])
    # Structure of the command line.
    structural = [
        ('unknown_command', ['simulate'], "'simulate'"),
        ('no_command', [], 'subcommand'),
        ('unknown_flag', ['cosim', '--fast'], '--fast'),
        ('unknown_flag_run', ['run', '--engine', 'golden', '--verbose'], '--verbose'),
        ('missing_value', ['cosim', '--tokens'], '--tokens'),
        ('missing_value_last', ['run', '--engine'], '--engine'),
        ('asm_without_input', ['asm'], 'input'),
        ('asm_two_inputs', ['asm', 'p.asm', 'q.asm'], 'q.asm'),
        ('disasm_without_input', ['disasm'], 'input'),
        ('program_and_model', ['cosim', '--program', P, '--model', 'mixtral-8x7b'], '--model'),
        ('program_and_tokens', ['cosim', '--program', P, '--tokens', '2'], '--tokens'),
        ('program_and_seed', ['run', '--engine', 'golden', '--program', P, '--seed', '2'], '--seed'),
        ('flag_twice', ['cosim', '--tokens', '1', '--tokens', '2'], '--tokens'),
        ('run_without_engine_value', ['run', '--engine', '--quiet'], '--engine'),
        ('repeat_zero', ['bench', '--engine', 'golden', '--repeat', '0'], '--repeat'),
        ('token_counts_zero', ['bench', '--engine', 'golden', '--token-counts', '0'],
         '--token-counts'),
        ('tokens_zero', ['cosim', '--tokens', '0'], '--tokens'),
        ('hidden_zero', ['cosim', '--hidden', '0'], '--hidden'),
        ('hidden_odd', ['cosim', '--hidden', '63'], '--hidden'),
        ('intermediate_odd', ['run', '--engine', 'golden', '--intermediate', '65'], '--intermediate'),
        ('tokens_too_many', ['run', '--engine', 'golden', '--machine', 'tiny'] + SHAPE + ['--tokens', '100000'],
         '--tokens'),
        ('shared_without_shared_expert', ['cosim', '--model', 'mixtral-8x7b', '--shared'] + SHAPE,
         '--shared'),
        ('jobs_without_windows', ['cosim', '--program', P, '--jobs', '2'], '--jobs'),
        ('executor_without_windows', ['cosim', '--program', P, '--executor', 'slurm'],
         '--executor'),
        ('slurm_flag_with_local_windows', ['cosim', '--program', P, '--windows', '2',
                                           '--partition', 'x'], '--partition'),
        ('slurm_windows_without_checkpoint_dir', ['cosim', '--program', P, '--windows', '2',
                                                  '--executor', 'slurm'], '--checkpoint-dir'),
        ('campaign_slurm_flag_with_local', ['campaign', 'c.yaml', '--out', 'o', '--poll', '1'],
         '--poll'),
        ('checkpoint_dir_without_windows', ['cosim', '--program', P, '--checkpoint-dir', 'ck'],
         '--checkpoint-dir ck'),
    ]
    for tag, args, where in structural:
        yield Case(f'flags/{tag}', args, dict(PROGRAM), [where])


# ---------------------------------------------------------------- output paths

def output_cases():
    run = ['run', '--engine', 'golden', '--program', P, '--quiet']
    cos = ['cosim', '--program', P, '--quiet']
    outputs = ['--report', '--html', '--trace-json', '--vcd']
    k = 0
    for flag in outputs:
        ext = {'--report': '.json', '--html': '.html', '--trace-json': '.json', '--vcd': '.vcd'}[flag]
        base = [run, cos][k % 2]
        k += 1
        yield Case(f'outputs/{flag[2:]}.missing_dir', base + [flag, 'no/dir/x' + ext], dict(PROGRAM), [flag])
        yield Case(f'outputs/{flag[2:]}.is_directory', base + [flag, 'd'], dict(PROGRAM, d=Dir()), [flag])
        yield Case(f'outputs/{flag[2:]}.is_program', base + [flag, P], dict(PROGRAM), [flag])
        yield Case(f'outputs/{flag[2:]}.empty', base + [flag, ''], dict(PROGRAM), [flag])
        # A write error names the file (the sinks report it when the run ends).
        yield Case(f'outputs/{flag[2:]}.dev_full', base + [flag, '/dev/full'], dict(PROGRAM),
                   ['/dev/full'])
    yield Case('outputs/report.txt', run + ['--report', 'r.txt'], dict(PROGRAM), ['--report'])
    yield Case('outputs/report.no_extension', run + ['--report', 'r'], dict(PROGRAM), ['--report'])
    yield Case('outputs/profile.txt', run + ['--profile', 'p.txt'], dict(PROGRAM), ['--profile'])
    yield Case('outputs/report_equals_html', run + ['--report', 'x.json', '--trace-json', 'x.json'],
               dict(PROGRAM), ['x.json'])
    yield Case('outputs/report_is_config', ['run', '--engine', 'golden', '--model', 'c.json',
                                             '--report', 'c.json'] + SHAPE,
               {'c.json': open(os.path.join(ROOT, 'testbenches', 'models',
                                            'mixtral-8x7b.config.json')).read()}, ['--report'])
    yield Case('outputs/asm-out_is_config', ['cosim', '--model', 'c.json', '--asm-out', 'c.json'] + SHAPE,
               {'c.json': open(os.path.join(ROOT, 'testbenches', 'models',
                                            'mixtral-8x7b.config.json')).read()}, ['--asm-out'])
    yield Case('outputs/asm-out_missing_dir', ['cosim', '--asm-out', 'no/dir/x.asm', '--tokens', '1'] + SHAPE,
               {}, ['--asm-out'])
    yield Case('outputs/dump_is_file', ['run', '--engine', 'golden', '--dump', P], dict(PROGRAM),
               ['--dump'])
    yield Case('outputs/trace-rtl_golden', ['run', '--engine', 'golden', '--program', P,
                                             '--trace-rtl', 't.fst'], dict(PROGRAM), ['--trace-rtl'])
    yield Case('outputs/bench_report_txt', ['bench', '--engine', 'golden', '--report', 'b.txt'] + SHAPE, {},
               ['--report'])
    yield Case('outputs/bench_report_missing_dir', ['bench', '--engine', 'golden', '--report',
                                                     'no/dir/b.json'] + SHAPE, {}, ['--report'])
    yield Case('outputs/asm.o_is_input', ['asm', P, '-o', P], dict(PROGRAM), ['-o'])
    yield Case('outputs/asm.o_stages', ['asm', P, '-o', 'x.stages'], dict(PROGRAM), ['-o'])
    yield Case('outputs/asm.o_missing_dir', ['asm', P, '-o', 'no/dir/x.hex'], dict(PROGRAM), ['-o'])
    yield Case('outputs/asm.o_directory', ['asm', P, '-o', 'd'], dict(PROGRAM, d=Dir()), ['-o'])
    yield Case('outputs/asm.o_dev_full', ['asm', P, '-o', '/dev/full'], dict(PROGRAM), ['-o'])
    yield Case('outputs/asm.o_empty', ['asm', P, '-o', ''], dict(PROGRAM), ['-o'])


# ---------------------------------------------------------------- inputs of the newer commands

TRACE = json.dumps({'format': 'moesim-route-trace', 'version': 1, 'experts': 32, 'top_k': 4,
                    'tokens': [{'ids': [0, 1, 2, 3], 'weights': [0.4, 0.3, 0.2, 0.1]}]}) + '\n'
MIX = 'loop_share: 0.1\n'


def input_cases():
    """Mix files, route traces, campaign specs, deployments and checkpoints: wrong files, keys
    written twice, and outputs that would overwrite them."""
    names = [i['mnemonic'] for i in _isa()['instructions']]
    zero = 'weights: {' + ', '.join(f'{m}: 0' for m in names) + '}\n'
    yield Case('inputs/mix_all_weights_zero', ['random', '--count', '1', '--mix', 'z.yaml', '-o', 'o'],
               {'z.yaml': zero}, ['--mix z.yaml', 'weights'])
    yield Case('inputs/mix_directory', ['random', '--count', '1', '--mix', 'd', '-o', 'o'],
               {'d': Dir()}, ['--mix d'])
    for key, bound in (('max_dynamic', 50), ('max_cycles', 30)):
        yield Case(f'inputs/mix_min_snippets_over_{key}',
                   ['random', '--count', '1', '--mix', 'm.yaml', '-o', 'o'],
                   {'m.yaml': f'min_snippets: 60\nmax_snippets: 100\n{key}: {bound}\n'},
                   ['m.yaml', 'min_snippets', key])
    yield Case('inputs/route_trace_directory', ['route-trace', 'check', 'd'], {'d': Dir()}, ['d: '])
    yield Case('inputs/route_trace_key_twice', ['route-trace', 'check', 't.json'],
               {'t.json': TRACE.replace('"top_k": 4,', '"top_k": 4, "top_k": 3,')},
               ["t.json:1: key 'top_k'"])
    yield Case('inputs/route_trace_gen_experts', ['route-trace', 'gen', '-o', 't.json', '--experts',
                                                  '2000000', '--top-k', '1', '--tokens', '1'],
               {}, ['--experts'])
    yield Case('inputs/replay_work_is_file', ['route-trace', 'replay', 't.json', '--model',
                                              'gpt-oss-20b', '--work', 'w'],
               {'t.json': TRACE, 'w': 'x\n'}, ['--work w'])
    yield Case('inputs/campaign_key_twice', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - machines: [tiny]\nruns:\n  - machines: [default]\n'},
               ["s.yaml:3:1: 'runs' written twice"])
    yield Case('inputs/campaign_list_key_twice', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - models: [gpt-oss-20b]\n    models: [qwen3-30b-a3b]\n'},
               ["s.yaml:3:5: 'models' written twice"])
    yield Case('inputs/deployment_key_twice', ['deploy', 'list', 'd.yaml'],
               {'d.yaml': 'deployments:\n  - name: a\n    model: gpt-oss-20b\n    ep: 2\n'
                          '    ep: 4\n    max_tokens_per_rank: 8\n'},
               ["d.yaml:5:5: 'ep' written twice"])
    # A model whose top-k exceeds its experts has no shapes: deploy list refuses it at its 'model'
    # line.
    topk500 = json.dumps({'model_type': 'deepseek_v3', 'hidden_size': 64, 'moe_intermediate_size': 64,
                          'n_routed_experts': 288, 'num_experts_per_tok': 500})
    yield Case('inputs/route_trace_gen_model_top_k_over_experts',
               ['route-trace', 'gen', '--model', 'm.json', '-o', 't.json'], {'m.json': topk500},
               ['--model', 'm.json', 'num_experts_per_tok 500'])
    yield Case('inputs/deployment_model_cosim_refuses', ['deploy', 'list', 'd.yaml'],
               {'d.yaml': 'deployments:\n  - name: a\n    model: m.json\n    ep: 2\n'
                          '    max_tokens_per_rank: 8\n', 'm.json': topk500},
               ["d.yaml:3:", "'model': ", 'm.json', 'num_experts_per_tok 500'])
    yield Case('outputs/report_is_route_trace', ['cosim', '--route-trace', 't.json', '--quiet',
                                                 '--report', 't.json'] + SHAPE,
               {'t.json': TRACE}, ['--report t.json', '--route-trace'])
    yield Case('outputs/report_is_mix', ['cosim', '--random-seed', '1', '--mix', 'm.yaml', '--quiet',
                                         '--report', 'm.yaml'], {'m.yaml': MIX},
               ['--report m.yaml', '--mix'])
    yield Case('outputs/html_is_mix', ['cosim', '--random-seed', '1', '--mix', 'm.html', '--quiet',
                                       '--html', 'm.html'], {'m.html': MIX}, ['--html m.html', '--mix'])
    yield Case('outputs/coverage_is_mix', ['random', '--count', '1', '--cosim', '--mix', 'm.yaml',
                                           '--coverage', 'm.yaml'], {'m.yaml': MIX},
               ['--coverage m.yaml', '--mix'])
    yield Case('outputs/report_is_checkpoint', ['cosim', '--from-checkpoint', 'c.json', '--to-retire',
                                                '5', '--quiet', '--report', 'c.json'],
               {'c.json': '{}\n'}, ['--report c.json', '--from-checkpoint'])
    yield Case('outputs/replay_report_is_config', ['route-trace', 'replay', 't.json', '--model',
                                                   'c.json', '--report', 'c.json'],
               {'t.json': TRACE, 'c.json': open(os.path.join(ROOT, 'testbenches', 'models',
                                                             'mixtral-8x7b.config.json')).read()},
               ['--report c.json', '--model'])


# ---------------------------------------------------------------- safetensors

def _safetensors(header, data=b'', length=None):
    """A safetensors file: the 8-byte little-endian header length, the header text, the data."""
    text = header.encode() if isinstance(header, str) else header
    return struct.pack('<Q', len(text) if length is None else length) + text + data


_QWEN3_TINY = json.dumps({'model_type': 'qwen3_moe', 'hidden_size': 64, 'moe_intermediate_size': 64,
                          'num_experts': 2, 'num_experts_per_tok': 1, 'norm_topk_prob': True,
                          'num_hidden_layers': 1})
_GATE = 'model.layers.0.mlp.gate.weight'


def safetensors_cases():
    """Malformed Hugging Face checkpoints and --inputs files (docs/checkpoints-hf.md): each
    refused naming the file, the tensor and the field; the bombs within HOSTILE."""
    def ck(model):
        return {'ck/config.json': _QWEN3_TINY, 'ck/model.safetensors': model}

    args = ['cosim', '--checkpoint', 'ck', '--layer', '0', '--quiet']
    inputs = ['cosim', '--inputs', 'h.safetensors', '--quiet'] + SHAPE
    yield Case('safetensors/header_length_bomb', inputs,
               {'h.safetensors': _safetensors('{}', length=1 << 63)},
               ['--inputs h.safetensors: header length', 'more than the limit of 100000000'],
               {}, HOSTILE)
    yield Case('safetensors/sparse_200mb', inputs,
               {'h.safetensors': Sparse(200 << 20)},
               ["--inputs h.safetensors: header: does not start with '{'"], {}, HOSTILE)
    yield Case('safetensors/offsets_overlap', args,
               ck(_safetensors('{"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]}, '
                               '"b": {"dtype": "U8", "shape": [4], "data_offsets": [2, 6]}}',
                               b'x' * 6)),
               ["ck/model.safetensors: tensor 'b': 'data_offsets' [2, 6]: overlaps"])
    yield Case('safetensors/unknown_dtype', args,
               ck(_safetensors('{"%s": {"dtype": "Q4_K", "shape": [2, 64], '
                               '"data_offsets": [0, 128]}}' % _GATE, b'x' * 128)),
               ["ck/model.safetensors: tensor '%s': 'dtype': 'Q4_K' is not a dtype" % _GATE])
    yield Case('safetensors/missing_router', args, ck(_safetensors('{}')),
               ["ck/model.safetensors: tensor '%s': not in the file" % _GATE])
    yield Case('safetensors/router_dtype_i8', args,
               ck(_safetensors('{"%s": {"dtype": "I8", "shape": [2, 64], '
                               '"data_offsets": [0, 128]}}' % _GATE, b'x' * 128)),
               ["ck/model.safetensors: tensor '%s': 'dtype' I8: moesim reads BF16" % _GATE])
    yield Case('safetensors/index_outside_the_directory', args,
               {'ck/config.json': _QWEN3_TINY,
                'ck/model.safetensors.index.json':
                    '{"weight_map": {"%s": "../m.safetensors"}}' % _GATE},
               ["ck/model.safetensors.index.json: 'weight_map': '%s': " % _GATE,
                '"../m.safetensors" is not a file name'])
    # nlohmann's dump() recurses once per level: an error that printed a value nested 100,000
    # levels deep overflowed the stack. Nesting is refused while parsing, as is a NUL byte (the
    # lexer would end the text there and leave the rest unread).
    deep = '[' * 100000 + ']' * 100000
    yield Case('safetensors/header_nested_100000', inputs,
               {'h.safetensors': _safetensors('{"__metadata__": {"a": %s}}' % deep)},
               ['--inputs h.safetensors: header:1: objects and arrays nested deeper than 256'])
    # A byte that is not UTF-8 in the header is quoted by the parser's message: it is written as
    # \xNN, and a name in well-formed UTF-8 is kept as it is.
    yield Case('safetensors/header_not_utf8', inputs,
               {'h.safetensors': _safetensors('{"x\xff": 1}'.encode('latin-1'))},
               ["--inputs h.safetensors: header: not valid JSON", "ill-formed UTF-8 byte",
                "last read: '\"x\\xFF'"])
    # Well-formed UTF-8 that moves the cursor or the text's direction is escaped too: a C1 CSI,
    # a NEL and a right-to-left override in a file name.
    yield Case('safetensors/inputs_name_c1_bidi',
               ['cosim', '--inputs', 'x\u009b31m\u0085\u202e.st', '--quiet'] + SHAPE, {},
               ['--inputs x\\xC2\\x9B31m\\xC2\\x85\\xE2\\x80\\xAE.st'])
    yield Case('safetensors/header_utf8_name', inputs,
               {'h.safetensors': _safetensors('{"é": {"dtype": "F32", "shape": [1, 2], '
                                              '"data_offsets": [0, 8]}}', b'x' * 8)},
               ["--inputs h.safetensors: tensor 'é'"])
    yield Case('safetensors/header_nul_padding', inputs,
               {'h.safetensors': _safetensors('{}\0\0\0\0\0\0')},
               ['--inputs h.safetensors: header: not valid JSON: a NUL byte at offset 2'])
    # num_hidden_layers bounds --layer: missing or not a positive integer, it is refused rather
    # than the bound silently dropped.
    for tag, value in (('negative', -1), ('string', '1'), ('missing', None)):
        cfg = json.loads(_QWEN3_TINY)
        if value is None:
            del cfg['num_hidden_layers']
        else:
            cfg['num_hidden_layers'] = value
        yield Case('safetensors/config_layers_' + tag, args,
                   {'ck/config.json': json.dumps(cfg), 'ck/model.safetensors': _safetensors('{}')},
                   ["ck/config.json: key 'num_hidden_layers': %s: a positive integer is needed"
                    % ('missing' if value is None else json.dumps(value))])
    yield Case('safetensors/checkpoint_is_a_file', ['cosim', '--checkpoint', 'ck/config.json',
                                                     '--layer', '0', '--quiet'],
               {'ck/config.json': _QWEN3_TINY},
               ['--checkpoint ck/config.json: not a directory'])
    yield Case('safetensors/config_nested_100000', args,
               {'ck/config.json': '{"x": %s}' % deep, 'ck/model.safetensors': _safetensors('{}')},
               ['ck/config.json:1: objects and arrays nested deeper than 256 levels'])


# ---------------------------------------------------------------- hostile inputs

# A few hundred bytes of nested YAML aliases: 10 levels of ten aliases, 10^10 nodes to any walk.
ALIAS_BOMB = ''.join(
    f'l{i}: &l{i} [' + ', '.join(['x'] * 10 if i == 0 else [f'*l{i - 1}'] * 10) + ']\n'
    for i in range(10))
ALIAS_AT = ':6:'  # the alias that takes the walk past 10^6 nodes, on line 6 (`l5`)


def _fnv1a64(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def _u(n, v):
    return v.to_bytes(n, 'little')


HEX_WORD = 0x0000006A  # S_ADDI_INT gp1, gp0, 1 is not needed: any word is a program


def checkpoint_bytes(vram_size=None, core_extra=b''):
    """A moesim checkpoint (docs/checkpoints.md, format version 2) of the one-word program
    p.hex (no .stages, no image) on the `default` preset at retire 0, with the identity the
    run computes, so that it passes the identity check and reaches the sections: its VRAM
    section may claim `vram_size` bytes and its CORE section may carry `core_extra` bytes after
    its fields (the checksum is recomputed either way)."""
    spec = os.path.join(ROOT, 'isa_spec')
    with open(os.path.join(spec, 'isa.yaml'), 'rb') as f:
        isa_h = _fnv1a64(f.read())
    with open(os.path.join(spec, 'machine.yaml'), 'rb') as f:
        mach_h = _fnv1a64(f.read())
    prog_h = _fnv1a64(_u(8, 1) + _u(4, HEX_WORD) + _u(1, 0))
    image_h = _fnv1a64(_u(8, 0) * 5)
    ident = _u(8, isa_h) + _u(8, mach_h) + _u(8, prog_h) + _u(8, image_h) + _u(2, 7) + b'default'

    def section(tag, body):
        return tag + _u(8, len(body)) + body

    core = _u(4, 0) + _u(8, 0) + _u(8, 0) + _u(8, 50000000) + core_extra
    regs = (_u(4, 16) + _u(4, 0) * 16 + _u(4, 8) + _u(2, 0) * 8 + _u(4, 8) + _u(8, 0) * 8
            + _u(4, 0) * 4 + _u(1, 0))
    loop = _u(4, 0)
    macc = b''.join(_u(8, n) + _u(4, 0) * n for n in (16, 4, 256, 16384))

    def mem(size):
        return _u(8, size) + _u(4, 4096) + _u(8, 0)

    payload = (section(b'CORE', core) + section(b'REGS', regs) + section(b'LOOP', loop)
               + section(b'MACC', macc)
               + section(b'VRAM', mem(vram_size if vram_size is not None else 1048576))
               + section(b'MRAM', mem(73728)) + section(b'FPSR', mem(8192))
               + section(b'INTS', mem(16384)) + section(b'HBM_', mem(67108864)))
    checksum = _fnv1a64(payload, _fnv1a64(ident))
    return (b'MOESIMCK' + _u(4, 2) + _u(4, len(ident)) + ident + _u(8, len(payload))
            + _u(8, checksum) + payload)


def hostile_cases():
    """Inputs built to hang, exhaust memory or lose files: alias bombs, size bombs, huge counts,
    special files, outputs that are inputs or other outputs, and values only a child would have
    refused. Each must be refused like any bad input, within HOSTILE (2 s of CPU, 100 MB)."""
    def case(name, args, files, where, env=None):
        return Case('hostile/' + name, args, files, where, env or {}, HOSTILE)

    hexprog = {'p.hex': f'0x{HEX_WORD:08X}\n'}
    deploy = ('deployments:\n  - name: a\n    model: gpt-oss-20b\n    ep: 2\n'
              '    max_tokens_per_rank: 8\n')
    campaign_one = 'runs:\n  - machines: [tiny]\n'

    # --- alias bombs: every YAML reader, refused before any walk
    yield case('alias_bomb_campaign', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': ALIAS_BOMB}, ['s.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_deploy_list', ['deploy', 'list', 'd.yaml'],
               {'d.yaml': ALIAS_BOMB}, ['d.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_deployments_flag',
               ['cosim', '--deployment', 'a', '--rank', '0', '--deployments', 'd.yaml', '--quiet'],
               {'d.yaml': ALIAS_BOMB}, ['d.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_image', ['cosim', '--program', P, '--image', 'i.yaml', '--quiet'],
               dict(PROGRAM, **{'i.yaml': ALIAS_BOMB}), ['i.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_mix', ['random', '--count', '1', '--mix', 'm.yaml', '-o', 'o'],
               {'m.yaml': ALIAS_BOMB}, ['--mix', 'm.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_case_file', ['conformance', '--engine', 'golden', '--suite', 's'],
               {'s/S_ADDI_INT/c.asm': CASE_ASM, 's/S_ADDI_INT/c.yaml': ALIAS_BOMB},
               ['c.yaml' + ALIAS_AT, 'alias'])
    yield case('alias_bomb_waivers', ['conformance', '--engine', 'golden', '--suite', 's'],
               {'s/S_ADDI_INT/c.asm': CASE_ASM, 's/S_ADDI_INT/c.yaml': CASE_OK,
                's/waivers.yaml': ALIAS_BOMB}, ['waivers.yaml' + ALIAS_AT, 'alias'])
    spec_files = {}
    for n in ('isa.yaml', 'machine.yaml', 'stages.yaml'):
        with open(os.path.join(ROOT, 'isa_spec', n)) as f:
            spec_files['spec/' + n] = f.read()
    yield case('alias_bomb_stages_yaml', ['asm', P], dict(PROGRAM, **dict(
        spec_files, **{'spec/stages.yaml': ALIAS_BOMB})), ['stages.yaml' + ALIAS_AT, 'alias'],
        env={'MOESIM_ISA_SPEC_DIR': 'spec'})
    yield case('yaml_deep_nesting', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs: ' + '[' * 100000 + ']' * 100000 + '\n'}, ['s.yaml:1:'])
    yield case('yaml_too_many_nodes', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'name: [' + '0,' * 1000000 + '0]\n'}, ['s.yaml:1:', '1000000'])

    # --- size bombs: refused by their size, before they are read
    yield case('size_campaign_spec', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': Sparse(17 << 20)}, ['s.yaml', 'more than the limit'])
    yield case('size_config_json', ['cosim', '--model', 'c.json', '--quiet'] + SHAPE,
               {'c.json': Sparse(17 << 20)}, ['--model', 'c.json', 'more than the limit'])
    yield case('size_route_trace', ['route-trace', 'check', 't.json'],
               {'t.json': Sparse(129 << 20)}, ['t.json', 'more than the limit'])
    yield case('size_assembly', ['asm', 'big.asm'], {'big.asm': Sparse(65 << 20)},
               ['big.asm', 'more than the limit'])
    yield case('size_checkpoint_section_claim',
               ['cosim', '--program', 'p.hex', '--from-checkpoint', 'c.ckpt', '--quiet'],
               dict(hexprog, **{'c.ckpt': checkpoint_bytes(vram_size=1 << 40)}),
               ['--from-checkpoint', 'c.ckpt', 'VRAM', str(1 << 40)])
    yield case('size_checkpoint_file', ['checkpoint', '--program', 'p.hex', '--load', 'c.ckpt'],
               dict(hexprog, **{'c.ckpt': Sparse(80 << 20)}), ['--load', 'c.ckpt',
                                                              'more than the limit'])

    # --- huge counts: refused against a stated limit before memory is reserved
    yield case('campaign_random_count', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - random: {count: 4294967295}\n'},
               ['s.yaml:2:', '100000'])
    numbers = '[' + ', '.join(str(64 * (i + 1)) for i in range(1000)) + ']'
    yield case('campaign_cross_product', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': f'runs:\n  - seeds: {numbers}\n    tokens: {numbers}\n'
                          f'    hidden: {numbers}\n'},
               ['s.yaml:2:', '1000000000 runs', '100000'])
    yield case('route_trace_gen_steps', ['route-trace', 'gen', '-o', 't.json', '--experts',
                                         '1048576', '--top-k', '1048576', '--tokens', '1'],
               {}, ['--top-k', '--experts', 'limit'])
    yield case('route_trace_gen_pairs', ['route-trace', 'gen', '-o', 't.json', '--experts', '8',
                                         '--top-k', '1', '--tokens', '4294967295'],
               {}, ['--tokens', 'limit'])
    big = json.dumps({'model_type': 'deepseek_v3', 'hidden_size': 64, 'moe_intermediate_size': 64,
                      'n_routed_experts': 1 << 20, 'num_experts_per_tok': 8})
    yield case('deploy_list_experts', ['deploy', 'list', 'd.yaml'],
               {'d.yaml': deploy.replace('gpt-oss-20b', 'm.json').replace('ep: 2', 'ep: 4096'),
                'm.json': big}, ['d.yaml:4:', "'ep'", 'limit'])

    # --- special files: refused for what they are, never read (a FIFO would block)
    yield case('checkpoint_dev_zero',
               ['cosim', '--program', P, '--from-checkpoint', '/dev/zero', '--quiet'],
               dict(PROGRAM), ['--from-checkpoint', '/dev/zero', 'not a regular file'])
    yield case('asm_fifo', ['asm', 'f.asm'], {'f.asm': Fifo()}, ['f.asm', 'not a regular file'])
    yield case('asm_proc_mem', ['asm', '/proc/self/mem', '-o', 'x.hex'], {},
               ['/proc/self/mem', 'read error'])
    yield case('hex_fifo', ['disasm', 'f.hex'], {'f.hex': Fifo()}, ['f.hex', 'not a regular file'])
    yield case('stages_fifo', ['disasm', 'p.hex'], dict(hexprog, **{'p.stages': Fifo()}),
               ['p.stages', 'not a regular file'])
    yield case('config_fifo', ['cosim', '--model', 'c.json', '--quiet'] + SHAPE,
               {'c.json': Fifo()}, ['--model', 'c.json', 'not a regular file'])
    yield case('route_trace_fifo', ['route-trace', 'check', 't.json'], {'t.json': Fifo()},
               ['t.json', 'not a regular file'])
    yield case('campaign_fifo', ['campaign', 's.yaml', '--out', 'o'], {'s.yaml': Fifo()},
               ['s.yaml', 'not a regular file'])
    yield case('deployments_fifo', ['deploy', 'list', 'd.yaml'], {'d.yaml': Fifo()},
               ['d.yaml', 'not a regular file'])
    yield case('image_fifo', ['cosim', '--program', P, '--image', 'i.yaml', '--quiet'],
               dict(PROGRAM, **{'i.yaml': Fifo()}), ['i.yaml', 'not a regular file'])
    yield case('image_bin_fifo', ['cosim', '--program', P, '--image-bin', 'hbm=i.bin', '--quiet'],
               dict(PROGRAM, **{'i.bin': Fifo()}), ['--image-bin hbm=i.bin', 'not a regular file'])
    yield case('checkpoint_load_fifo', ['checkpoint', '--program', 'p.hex', '--load', 'c.ckpt'],
               dict(hexprog, **{'c.ckpt': Fifo()}), ['--load', 'c.ckpt', 'not a regular file'])
    yield case('checkpoint_load_directory', ['checkpoint', '--program', 'p.hex', '--load', 'd'],
               dict(hexprog, d=Dir()), ['--load', 'd', 'is a directory'])
    yield case('spec_isa_yaml_directory', ['asm', P],
               dict(PROGRAM, **{k: v for k, v in spec_files.items() if k != 'spec/isa.yaml'},
                    **{'spec/isa.yaml/keep': 'x'}), ['spec/isa.yaml', 'is a directory'],
               env={'MOESIM_ISA_SPEC_DIR': 'spec'})

    # --- outputs over inputs, and outputs over each other (links followed)
    yield case('report_over_deployments',
               ['cosim', '--deployment', 'a', '--rank', '0', '--deployments', 'd.yaml', '--quiet',
                '--report', 'd.yaml'], {'d.yaml': deploy}, ['--report d.yaml', '--deployments'])
    with open(os.path.join(ROOT, 'testbenches', 'models', 'mixtral-8x7b.config.json')) as f:
        mixtral = f.read()
    yield case('bench_report_over_model', ['bench', '--engine', 'golden', '--model', 'c.json',
                                           '--token-counts', '1', '--report', 'c.json'] + SHAPE,
               {'c.json': mixtral}, ['--report c.json', '--model'])
    yield case('asm_out_over_route_trace', ['cosim', '--route-trace', 't.json', '--asm-out',
                                            't.json', '--quiet'] + SHAPE,
               {'t.json': TRACE}, ['--asm-out t.json', '--route-trace'])
    for flag, path, other in (('--html', 'x.html', 'x.html'),
                              ('--trace-json', 'x.json', 'x.json'),
                              ('--vcd', 't.vcd', 't.gtkw'),
                              ('--trace-log', 't.log', 't.golden.log'),
                              ('--report', 'r.json', 'r.json')):
        yield case(f'asm_out_over{flag[1:]}', ['cosim', '--tokens', '1', '--quiet', '--asm-out',
                                               other, flag, path] + SHAPE, {},
                   ['--asm-out ' + other, flag, 'name the same file'])
    yield case('report_over_program_by_symlink', ['run', '--engine', 'golden', '--program', P,
                                                  '--quiet', '--report', 'l.json'],
               dict(PROGRAM, **{'l.json': Link(P)}), ['--report l.json', '--program'])
    yield case('report_over_program_by_hard_link', ['run', '--engine', 'golden', '--program', P,
                                                    '--quiet', '--report', 'h.json'],
               dict(PROGRAM, **{'h.json': HardLink(P)}), ['--report h.json', '--program'])
    yield case('dump_over_image_bin', ['run', '--engine', 'golden', '--program', P, '--quiet',
                                       '--image-bin', 'hbm=d/hbm.bin', '--dump', 'd'],
               dict(PROGRAM, **{'d/hbm.bin': b'\x01\x02'}), ['--dump d', '--image-bin'])
    yield case('cosim_dump_over_image_bin', ['cosim', '--program', P, '--quiet', '--image-bin',
                                             'hbm=d/rtl/hbm.bin', '--dump', 'd'],
               dict(PROGRAM, **{'d/rtl/hbm.bin': b'\x01\x02'}), ['--dump d', '--image-bin'])
    yield case('report_over_dump_manifest', ['run', '--engine', 'golden', '--program', P,
                                             '--quiet', '--dump', 'd', '--report',
                                             'd/manifest.json'],
               dict(PROGRAM, d=Dir()), ['--report d/manifest.json', '--dump d',
                                        'name the same file'])
    yield case('route_trace_gen_over_model', ['route-trace', 'gen', '--model', 'c.json', '-o',
                                              'c.json'], {'c.json': mixtral},
               ['-o c.json', '--model'])

    # --- values only the child checked, and filesystem errors: exit 2 from the parent
    yield case('campaign_out_cannot_be_made', ['campaign', 's.yaml', '--out', 'f/sub'],
               {'s.yaml': campaign_one, 'f': 'a file\n'}, ['--out'])
    yield case('campaign_run_folder_name_too_long', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - flip_bit: golden:hbm:' + '0' * 300 + '1:0\n'},
               ['s.yaml:2:', '255'])
    yield case('campaign_moesim_missing', ['campaign', 's.yaml', '--out', 'o', '--moesim',
                                           'nothere'], {'s.yaml': campaign_one},
               ['--moesim nothere', 'no such file'])
    yield case('campaign_moesim_not_executable', ['campaign', 's.yaml', '--out', 'o', '--moesim',
                                                  'm'], {'s.yaml': campaign_one, 'm': '#!/bin/sh\n'},
               ['--moesim m', 'not executable'])
    yield case('campaign_windows_over_cosim_limit', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - windows: 200000\n'}, ['s.yaml:2:', "'windows'", '100000'])
    yield case('campaign_flip_bit_syntax', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - flip_bit: golden:nowhere:0:0\n'},
               ['s.yaml:2:', "'flip_bit'", 'SPACE'])
    yield case('campaign_flip_bit_outside_space', ['campaign', 's.yaml', '--out', 'o'],
               {'s.yaml': 'runs:\n  - machines: [tiny]\n    flip_bit: rtl:fp_sram:999999999:0\n'},
               ['s.yaml:3:', "'flip_bit'", 'outside', 'tiny'])
    yield case('trace_json_dev_full_cosim', ['cosim', '--program', P, '--quiet', '--trace-json',
                                             '/dev/full'], dict(PROGRAM),
               ['--trace-json', '/dev/full'])
    yield case('disasm_stages_back_to_other', ['disasm', 'p.hex'],
               {'p.hex': f'0x{HEX_WORD:08X}\n' * 2, 'p.stages': 'gather\nother\n'},
               ['p.stages', "'other'"])
    yield case('bench_token_counts_too_many', ['bench', '--engine', 'golden', '--machine', 'tiny',
                                               '--token-counts', '100000'] + SHAPE, {},
               ['--token-counts 100000'])
    yield case('conformance_waiver_twice', ['conformance', '--engine', 'golden', '--suite', 's'],
               {'s/S_ADDI_INT/c.asm': CASE_ASM, 's/S_ADDI_INT/c.yaml': CASE_OK,
                's/waivers.yaml': '- {item: "V_TOPK", reason: x}\n- {item: "V_TOPK", reason: y}\n'},
               ['waivers.yaml', 'V_TOPK', 'twice'])
    yield case('shared_intermediate_without_shared', ['cosim', '--quiet', '--shared-intermediate',
                                                      '64'] + SHAPE, {}, ['--shared-intermediate'])
    yield case('checkpoint_section_trailing_bytes',
               ['checkpoint', '--program', 'p.hex', '--load', 'c.ckpt'],
               dict(hexprog, **{'c.ckpt': checkpoint_bytes(core_extra=b'\0\0\0\0')}),
               ['--load', 'c.ckpt', 'CORE', 'trailing'])


# ---------------------------------------------------------------- output guard collisions
#
# The flags that name files are not listed here: they come from the CLI's own option tables.
# Every flag (or positional argument) that names a file read or written is in the "Input files" or
# "Output files" group of its command's --help, its value named FILE or DIR (or a syntax holding
# FILE), and `moesim help-files` prints those groups as JSON. For every command, collision_cases()
# makes, for every (output, input) pair, a case whose output names the input's file, and for
# every pair of outputs, a case where both name one file; each must be refused by the command's
# output guard (sim/cli/path_guard.cpp) with exit 2, naming both, with the input unchanged and
# nothing written. What is written by hand is how a case reaches each command's guard: the
# command's cheapest valid command line (the guard refuses before any simulation) and how each of
# its inputs is given. A file flag of a command without that, a value syntax the generator cannot
# place a file in, or an entry here that names no flag of the CLI is a corpus error: a new flag
# or command is never skipped without a word.


class In:
    """How a collision case gives one input of a command: a file of `content` named `c` + `ext`
    (or the extension the output needs), passed as the flag's value (a positional argument: in
    its `{NAME}` place in the command line), with the `context` arguments and `files` it needs.
    `default`: what a case about another input gives instead (a required input): the arguments
    (or, for a positional, the file name) and its content. `inside`: for a directory input, its
    files and the one an output names (the directory is `value`)."""

    def __init__(self, content=None, ext='', context=(), files=None, default=None, inside=None,
                 value=None):
        self.content, self.ext, self.context, self.files = content, ext, list(context), files or {}
        self.default, self.inside, self.value = default, inside, value


class Out:
    """What an output flag needs of the name it is given: `ext`, the extension it insists on;
    `infix`, for a flag that never writes its value itself but NAME`infix`EXT (cosim --trace-log
    FILE writes FILE.golden and FILE.rtl): the file named is the one with the infix."""

    def __init__(self, ext='', infix=''):
        self.ext, self.infix = ext, infix


_MIXTRAL = os.path.join(ROOT, 'testbenches', 'models', 'mixtral-8x7b.config.json')
_DEPLOYMENTS = ('deployments:\n  - name: a\n    model: gpt-oss-20b\n    ep: 2\n'
                '    max_tokens_per_rank: 8\n')
_IMAGE = 'hbm: [{addr: 0, bytes: [1, 2]}]\n'
_COVERAGE_DAT = ("# SystemC::Coverage-3\n"
                 "C '\x01f\x02/src/m.sv\x01l\x023\x01n\x025\x01page\x02v_line/m\x01o\x02block"
                 "\x01h\x02TOP.moe_top' 1\n")
_SUITE = {'s/S_ADDI_INT/c.asm': CASE_ASM, 's/S_ADDI_INT/c.yaml': CASE_OK}


def _program_inputs(mixtral):
    """The inputs of the program flags (program_flags.cpp) of cosim, run and checkpoint."""
    return {
        '--model': In(mixtral, '.json', context=SHAPE),
        '--program': In('S_ADDI_INT gp1, gp0, 1\n', '.asm'),
        '--image': In(_IMAGE, '.yaml', context=['--program', P], files=PROGRAM),
        '--image-bin': In(b'\x01\x02', '.bin', context=['--program', P], files=PROGRAM),
        '--route-trace': In(TRACE, '.json', context=SHAPE),
        '--mix': In(MIX, '.yaml', context=['--random-seed', '1']),
        '--stage-map': In(STAGE_MAP, '.yaml', context=['--program', P], files=PROGRAM),
        '--inputs': In(b'\x02\0\0\0\0\0\0\0{}', '.safetensors', context=SHAPE),
        '--checkpoint': In(value='ck', inside=({'ck/config.json': mixtral}, 'ck/config.json'),
                           context=['--layer', '0']),
    }


def collision_commands():
    """Per command of `moesim help-files`: its cheapest command line that reaches the output
    guard, and how each of its inputs is given (In)."""
    with open(_MIXTRAL) as f:
        mixtral = f.read()
    checkpoint_file = In(b'MOESIMCK', '.ckpt', context=SHAPE)  # of the generated layer
    return {
        'cosim': (['cosim', '--quiet'], dict(
            _program_inputs(mixtral),
            **{'--from-checkpoint': checkpoint_file,
               '--deployments': In(_DEPLOYMENTS, '.yaml',
                                   context=['--deployment', 'a', '--rank', '0'])})),
        # --engine rtl: --trace-rtl needs it (with the guard in place nothing runs).
        'run': (['run', '--engine', 'rtl', '--quiet'], _program_inputs(mixtral)),
        'checkpoint': (['checkpoint'],
                       dict(_program_inputs(mixtral), **{'--load': checkpoint_file})),
        'bench': (['bench', '--engine', 'golden', '--token-counts', '1'] + SHAPE,
                  {'--model': In(mixtral, '.json')}),
        'random': (['random', '--count', '1', '--cosim'], {'--mix': In(MIX, '.yaml')}),
        'conformance': (['conformance', '--engine', 'golden', '--quiet'],
                        {'--suite': In(value='s', inside=(_SUITE, 's/S_ADDI_INT/c.yaml'),
                                       default=(['--suite', 's'], _SUITE))}),
        'asm': (['asm', '{input}'], {'input': In('S_ADDI_INT gp1, gp0, 1\n', '.asm',
                                                 default=('p.asm', 'S_ADDI_INT gp1, gp0, 1\n')),
                                     '--stage-map': In(STAGE_MAP, '.yaml')}),
        'campaign': (['campaign', '{spec}'],
                     {'spec': In('runs:\n  - machines: [tiny]\n', '.yaml',
                                 default=('s.yaml', 'runs:\n  - machines: [tiny]\n')),
                      '--moesim': In('#!/bin/sh\nexit 1\n', '.sh')}),
        'route-trace gen': (['route-trace', 'gen'], {'--model': In(mixtral, '.json')}),
        'route-trace replay': (['route-trace', 'replay', '{FILE}'],
                               {'FILE': In(TRACE, '.json', default=('t.json', TRACE)),
                                '--model': In(mixtral, '.json',
                                              default=(['--model', 'gpt-oss-20b'], {}))}),
        'coverage': (['coverage', '{inputs}'],
                     {'inputs': In(_COVERAGE_DAT, '.dat', default=('r.dat', _COVERAGE_DAT)),
                      '--waivers': In('[]\n', '.yaml')}),
    }


# What an output flag needs of its name (all commands, or one command's flag).
COLLISION_OUTPUTS = {
    '--report': Out('.json'),  # cosim and run also take .yaml; bench, random and replay only .json
    '--profile': Out('.json'),
    ('cosim', '--trace-log'): Out(infix='.golden'),
}

# How a file name goes into a flag's value, per value syntax of the CLI's --help.
COLLISION_VALUES = {
    'FILE': '{}', 'DIR': '{}', 'NAME|FILE': '{}', 'DIR|FILE': '{}', 'SPACE=FILE[@OFFSET]': 'hbm={}',
}

# Pairs that are not collisions, each with its reason: (command or None for every command that
# has both, flag, flag).
COLLISION_EXCLUSIVE = {
    (None, '--asm-out', '--program'): 'the CLI refuses --asm-out (the generated layer\'s '
                                      'assembly) with --program, which runs another program',
    (None, '--asm-out', '--image'): '--image needs --program, which --asm-out excludes',
    (None, '--asm-out', '--image-bin'): '--image-bin needs --program, which --asm-out excludes',
    (None, '--asm-out', '--mix'): '--mix needs --random-seed, which --asm-out excludes (a random '
                                  'program is not the generated layer)',
    (None, '--asm-out', '--stage-map'): '--stage-map needs --program, which --asm-out excludes',
}
COLLISION_ALLOWED = {
    ('cosim', '--dump', '--checkpoint-dir'): 'one folder holds both: --dump writes golden/ and '
                                             'rtl/, --checkpoint-dir retire_N.ckpt and window_K/',
    ('cosim', '--dump', '--rtl-coverage'): 'one folder holds both: --dump writes golden/ and rtl/, '
                                           '--rtl-coverage PRESET-PID-NS-N.dat files',
    ('cosim', '--checkpoint-dir', '--rtl-coverage'): 'one folder holds both: retire_N.ckpt and '
                                                     'window_K/, and PRESET-PID-NS-N.dat files',
    ('run', '--dump', '--rtl-coverage'): 'one folder holds both: --dump writes SPACE.bin (or the '
                                         'layer\'s outputs) and manifest.json, --rtl-coverage '
                                         'PRESET-PID-NS-N.dat files',
    ('random', '-o', '--rtl-coverage'): 'one folder holds both: -o writes random_SEED.asm/.yaml '
                                        'and shrunk_SEED.asm/.yaml, --rtl-coverage '
                                        'PRESET-PID-NS-N.dat files',
}


class CorpusError(Exception):
    """The CLI lists a file flag the generator cannot give a case (or a table entry here names
    no flag of the CLI)."""


def file_flags(moesim):
    """`moesim help-files`: [{command, reads, writes}] (sim/cli/main.cpp)."""
    p = subprocess.run([moesim, 'help-files'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False)
    if p.returncode != 0:
        raise CorpusError(f'{moesim} help-files: exit {p.returncode}: {p.stderr.decode()[:500]}')
    return json.loads(p.stdout)


def _pair_entry(table, cmd, a, b):
    for key in ((cmd, a, b), (cmd, b, a), (None, a, b), (None, b, a)):
        if key in table:
            return key
    return None


def collision_cases(moesim):
    """The output guard cases of every command `moesim help-files` lists (see above); raises
    CorpusError, before any case runs, for a file flag no case can be made for (and when the
    generator would not: collision_self_check)."""
    listing = file_flags(moesim)
    collision_self_check(listing)
    return _collisions(listing)


def collision_self_check(listing):
    """The generator refuses what it cannot cover: a listing with a new output flag on a command
    without a command line here, a new input no case can give, a value syntax it cannot place a
    file in, or without an input this file describes, each raises CorpusError naming the flag."""

    def changed(cmd, side, flag=None, drop=None):
        new = copy.deepcopy(listing)
        for c in new:
            if c['command'] == cmd:
                if flag:
                    c[side].append(dict({'names': [flag['flag']], 'positional': False}, **flag))
                if drop:
                    c[side] = [f for f in c[side] if f['flag'] != drop]
        return new

    trials = [
        (changed('disasm', 'writes', {'flag': '--new-out', 'type': 'FILE', 'kind': 'file'}),
         '--new-out'),
        (changed('cosim', 'reads', {'flag': '--new-in', 'type': 'FILE', 'kind': 'file'}),
         '--new-in'),
        (changed('run', 'writes', {'flag': '--to-host', 'type': 'HOST:FILE', 'kind': 'file'}),
         'HOST:FILE'),
        (changed('cosim', 'reads', drop='--mix'), '--mix'),
    ]
    for trial, flag in trials:
        try:
            _collisions(trial)
        except CorpusError as e:
            if flag in str(e):
                continue
        raise CorpusError(f'self-check: a listing changed at {flag} gave no corpus error '
                          f'naming it')


def _collisions(listing):
    commands = collision_commands()
    used, problems, out = set(), [], []

    def value_of(flag):
        """The flag's value naming the file `{}`."""
        if flag['type'] not in COLLISION_VALUES:
            problems.append(f'{flag["flag"]}: value {flag["type"]!r}: no way to place a file in '
                            f'it (gen_cases.py COLLISION_VALUES)')
            return '{}'
        return COLLISION_VALUES[flag['type']]

    def out_rule(cmd, flag):
        return COLLISION_OUTPUTS.get((cmd, flag), COLLISION_OUTPUTS.get(flag, Out()))

    def command_line(cmd, reads, pair_input=None, name=None):
        """The command's base command line with the input `pair_input` (a listing entry) given
        the file `name`, and every other input that has a default given that."""
        base, ins = commands[cmd]
        args, files = list(base), {}
        for f in reads:
            spec, place = ins[f['flag']], '{' + f['flag'] + '}'
            if f is pair_input:
                if spec.inside is not None:
                    files.update(spec.inside[0])
                    val = spec.value
                else:
                    files[name] = spec.content
                    val = value_of(f).format(name)
                files.update(spec.files)
                if f['positional']:
                    args = [val if x == place else x for x in args]
                else:
                    args += [f['flag'], val] + spec.context
            elif spec.default is not None:
                dargs, dfiles = spec.default
                if f['positional']:
                    args = [dargs if x == place else x for x in args]
                    files[dargs] = dfiles
                else:
                    args += dargs
                    files.update(dfiles)
        return args, files

    def label(flag):
        return flag.lstrip('-')

    for c in listing:
        cmd, reads, writes = c['command'], c['reads'], c['writes']
        if not writes or len(writes) + len(reads) < 2:
            continue  # no pair
        if cmd not in commands:
            problems.append(f'moesim {cmd} writes {", ".join(w["flag"] for w in writes)}: no '
                            f'command line reaches its output guard (gen_cases.py '
                            f'collision_commands)')
            continue
        ins = commands[cmd][1]
        bad = False
        for f in reads:
            if f['flag'] not in ins:
                problems.append(f'moesim {cmd} {f["flag"]}: an input no case can give '
                                f'(gen_cases.py collision_commands)')
                bad = True
            elif (f['kind'] == 'dir') != (ins[f['flag']].inside is not None):
                problems.append(f'moesim {cmd} {f["flag"]}: a {f["kind"]} in the CLI, not in '
                                f'gen_cases.py collision_commands')
                bad = True
        for name in set(ins) - {f['flag'] for f in reads}:
            problems.append(f'gen_cases.py collision_commands: moesim {cmd} lists no input '
                            f'{name}')
            bad = True
        used.add(cmd)
        if bad:
            continue
        tag = cmd.replace(' ', '-')
        # An output over each input.
        for o in writes:
            rule = out_rule(cmd, o['flag'])
            for i in reads:
                key = _pair_entry(COLLISION_EXCLUSIVE, cmd, o['flag'], i['flag'])
                if key:
                    used.add(key)
                    continue
                spec = ins[i['flag']]
                if spec.inside is not None:  # a directory input: a file in it
                    value = target = spec.inside[1]
                    if rule.ext and not target.endswith(rule.ext):
                        problems.append(f'moesim {cmd} {o["flag"]} needs a {rule.ext} name; '
                                        f'{i["flag"]} holds {target}')
                        continue
                    named = f'{i["flag"]} {spec.value}'
                else:
                    ext = rule.ext or spec.ext or '.in'
                    target, value = 'c' + rule.infix + ext, 'c' + ext
                    named = target if i['positional'] else f'{i["flag"]} {target}'
                args, files = command_line(cmd, reads, i, target)
                args += [o['flag'], value_of(o).format(value)]
                out.append(Case(f'collisions/{tag}/{label(o["flag"])}.over.{label(i["flag"])}',
                                args, files, [f'{o["flag"]} {value}', f'the input {named}'],
                                {}, HOSTILE))
        # Two outputs naming one file.
        for k, a in enumerate(writes):
            for b in writes[k + 1:]:
                key = (_pair_entry(COLLISION_ALLOWED, cmd, a['flag'], b['flag'])
                       or _pair_entry(COLLISION_EXCLUSIVE, cmd, a['flag'], b['flag']))
                if key:
                    used.add(key)
                    continue
                ra, rb = out_rule(cmd, a['flag']), out_rule(cmd, b['flag'])
                if (ra.ext and rb.ext and ra.ext != rb.ext) or (ra.infix and rb.infix):
                    problems.append(f'moesim {cmd} {a["flag"]} and {b["flag"]}: no one name '
                                    f'both write (gen_cases.py COLLISION_OUTPUTS)')
                    continue
                ext = ra.ext or rb.ext or '.out'
                target = 'c' + ra.infix + rb.infix + ext
                args, files = command_line(cmd, reads)
                where = ['name the same file']
                for f, r in ((a, ra), (b, rb)):
                    value = 'c' + ext if r.infix else target
                    args += [f['flag'], value_of(f).format(value)]
                    where.append(f'{f["flag"]} {value}')
                out.append(Case(f'collisions/{tag}/{label(a["flag"])}.and.{label(b["flag"])}',
                                args, files, where, {}, HOSTILE))
    if not problems:  # (a command skipped above leaves its entries unused)
        for k in list(COLLISION_EXCLUSIVE) + list(COLLISION_ALLOWED) + list(commands):
            if k not in used:
                problems.append(f'gen_cases.py: {k} names no command or pair of flags of '
                                f'`moesim help-files`')
    if problems:
        raise CorpusError('output guard collisions:\n  ' + '\n  '.join(dict.fromkeys(problems)))
    return out


def cases(moesim=None):
    """Every generated case; the output guard collisions need the moesim executable (its
    `help-files`), and are left out without it."""
    for gen in (asm_cases, hex_cases, suite_cases, config_cases, flag_cases, output_cases,
                input_cases, safetensors_cases, hostile_cases):
        yield from gen()
    if moesim is not None:
        yield from collision_cases(moesim)


def main():
    argv = sys.argv[1:]
    if (len(argv) not in (2, 4) or argv[0] != '--write'
            or (len(argv) == 4 and argv[2] != '--moesim')):
        print('usage: gen_cases.py --write DIR [--moesim BIN] (with BIN, the output guard '
              'collisions too)', file=sys.stderr)
        return 2
    out = argv[1]
    n = 0
    try:
        generated = list(cases(argv[3] if len(argv) == 4 else None))
    except CorpusError as e:
        print(f'gen_cases.py: {e}', file=sys.stderr)
        return 1
    for c in generated:
        p = os.path.join(out, c.name + '.case')
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, 'wb') as f:
            f.write(b'args: ' + ' '.join(repr(a) if not a or ' ' in a else a for a in c.args).encode() + b'\n')
            for w in c.where:
                f.write(b'where: ' + w.encode() + b'\n')
            for k, v in c.env.items():
                f.write(b'env: ' + f'{k}={v}'.encode() + b'\n')
            if c.limits is not None:
                f.write(f'limits: {c.limits.seconds} {c.limits.megabytes}\n'.encode())
            for name, content in c.files.items():
                if isinstance(content, (Dir, Fifo, Sparse, Link, HardLink)):
                    f.write(b'# (made when the case runs: ' + name.encode() + b', a ' +
                            type(content).__name__.encode() + b')\n')
                    continue
                data = content if isinstance(content, bytes) else content.encode()
                f.write(b'file: ' + name.encode() + b'\n' + data)
        n += 1
    print(f'{n} cases written to {out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
