; M_BMM after M_BMM_WO starts from a cleared hm: M_BMM (tile 0, r0 = 0, VRAM rows 400..463 of
; which rows 403 and 460 are nonzero), M_BMM_WO to rows 1000..1255, the same M_BMM again and
; M_BMM_WO to rows 1256..1511: both write the one M_BMM's hm (rows 1000 / 1256 + 64b + 3 and
; + 60 nonzero). An hm row cleared by M_BMM_WO reads +0.0 even though its words still hold the old
; sums, so a second M_BMM that added to them would write twice the values.
; Expected values: scripts/oracle_bmm.py.
; Latencies: M_BMM 16401, M_BMM_WO 257.
S_ADDI_INT gp2, gp0, 25600
S_ADDI_INT gp4, gp0, 64000
S_ADDI_INT gp5, gp0, 80384
M_BMM 0, gp0, gp2
M_BMM_WO gp4, 0
M_BMM 0, gp0, gp2
M_BMM_WO gp5, 0
