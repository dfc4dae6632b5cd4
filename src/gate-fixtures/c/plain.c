/* Host code for the EXEC-STACK and ISA-LEVEL fixtures: what matters is how it is linked (gate-fixtures.mk). */
int gate_answer(int x) { return x * 6 + 7; }
