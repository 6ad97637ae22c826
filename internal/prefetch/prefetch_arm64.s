#include "textflag.h"

// func line(addr uintptr)
TEXT ·line(SB), NOSPLIT|NOFRAME, $0-8
	MOVD addr+0(FP), R0
	PRFM (R0), PLDL1KEEP
	RET
