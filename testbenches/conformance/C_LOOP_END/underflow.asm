; C_LOOP_END with no active loop traps loop_underflow at pc 0 (no cycle, nothing written).
C_LOOP_END gp1
