//go:build !purego

#include "textflag.h"

// func linesAVX2(s []byte) (n, last, done int)
//
// Looks at the units s[j], j from 2, 64 a step while a whole step
// remains, and stops before a step that holds a quote, or a LF one or two
// units after another LF (s[j-1] or s[j-2]). n is how many LFs the steps
// looked at hold; last is the index of the last of them (0: none); done
// is the index it stopped at. Needs AVX2. The LFs are counted a byte
// lane each (VPSUBB), summed every 255 steps (VPSADBW).
TEXT ·linesAVX2(SB), NOSPLIT, $0-48
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), BX
	LEAQ 2(SI), DI          // DI: &s[j]
	LEAQ -64(SI)(BX*1), R11 // a step starts at or before R11
	MOVQ $0x0a, AX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0     // LF in every byte
	MOVQ $0x22, AX
	MOVQ AX, X1
	VPBROADCASTB X1, Y1     // the quote in every byte
	VPXOR Y10, Y10, Y10     // the LFs counted, in 4 sums
	VPXOR Y11, Y11, Y11     // zero

steps:
	VPXOR Y8, Y8, Y8        // the LFs of each byte lane, first half
	VPXOR Y9, Y9, Y9        // second half
	MOVQ  $255, CX          // steps before a byte lane could overflow

step:
	CMPQ     DI, R11
	JA       stop
	VMOVDQU  (DI), Y2
	VMOVDQU  32(DI), Y3
	VPCMPEQB Y1, Y2, Y12     // quotes
	VPCMPEQB Y1, Y3, Y13
	VPCMPEQB Y0, Y2, Y2      // LFs
	VPCMPEQB Y0, Y3, Y3
	VPCMPEQB -1(DI), Y0, Y4  // LFs one unit before
	VPCMPEQB 31(DI), Y0, Y5
	VPCMPEQB -2(DI), Y0, Y6  // LFs two units before
	VPCMPEQB 30(DI), Y0, Y7
	VPOR     Y6, Y4, Y4
	VPOR     Y7, Y5, Y5
	VPAND    Y2, Y4, Y4      // a LF close after another
	VPAND    Y3, Y5, Y5
	VPOR     Y12, Y4, Y4
	VPOR     Y13, Y5, Y5
	VPOR     Y4, Y5, Y5
	VPTEST   Y5, Y5
	JNZ      stop
	VPSUBB   Y2, Y8, Y8      // a LF is -1: subtracted, counted
	VPSUBB   Y3, Y9, Y9
	ADDQ     $64, DI
	DECQ     CX
	JNZ      step
	VPSADBW  Y11, Y8, Y8
	VPSADBW  Y11, Y9, Y9
	VPADDQ   Y8, Y10, Y10
	VPADDQ   Y9, Y10, Y10
	JMP      steps

stop:
	VPSADBW      Y11, Y8, Y8
	VPSADBW      Y11, Y9, Y9
	VPADDQ       Y8, Y10, Y10
	VPADDQ       Y9, Y10, Y10
	VEXTRACTI128 $1, Y10, X2
	VPADDQ       X2, X10, X10
	VPSHUFD      $0x4e, X10, X2
	VPADDQ       X2, X10, X10
	MOVQ         X10, AX
	MOVQ         AX, n+24(FP)
	MOVQ         DI, R12
	SUBQ         SI, R12
	MOVQ         R12, done+40(FP)
	XORQ         R12, R12
	TESTQ        AX, AX
	JZ           last

	// The last LF: back from where it stopped to the last step with one.
back:
	SUBQ      $64, DI
	VPCMPEQB  (DI), Y0, Y2
	VPCMPEQB  32(DI), Y0, Y3
	VPMOVMSKB Y2, AX
	VPMOVMSKB Y3, DX
	SHLQ      $32, DX
	ORQ       DX, AX
	JZ        back
	BSRQ      AX, R12
	ADDQ      DI, R12
	SUBQ      SI, R12

last:
	MOVQ R12, last+32(FP)
	VZEROUPPER
	RET
