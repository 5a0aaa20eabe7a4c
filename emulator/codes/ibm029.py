"""IBM 029 keypunch = the EBCDIC card code: all 256 EBCDIC bytes on the 256 valid punch patterns.

A column is *valid* in this code when it has any subset of rows {12, 11, 0, 8, 9} plus at most one of
rows 1–7: 32 × 8 = 256 patterns, one per EBCDIC byte (``docs/cards.md`` §1, §2).
:data:`EBCDIC_TO_WORD` is that table (from SIMH ``ebcdic_to_hol``; it agrees with the S/370
*Principles of Operation* chart), indexed by byte; :data:`WORD_TO_EBCDIC` is its inverse.

Characters go through code page 037 (Python's ``cp037`` codec), so every byte — control characters
included — has a character.  That gives the three graphics the 029 prints beyond ASCII:
``¢`` 12-2-8 (byte 4A), ``¬`` 11-7-8 (5F) and ``¦`` 12-11 (6A) (§2).  Lower case is punched
(``a`` = 12-0-1); the 029 does not fold case.  Any other pattern (two or more of rows 1–7) is a punch
error.
"""

from __future__ import annotations

from emulator.codes import Code, register

EBCDIC_TO_WORD: tuple[int, ...] = (
    # 0_
    0o5403, 0o4401, 0o4201, 0o4101, 0o4041, 0o4021, 0o4011, 0o4005,
    0o4003, 0o4403, 0o4203, 0o4103, 0o4043, 0o4023, 0o4013, 0o4007,
    # 1_
    0o6403, 0o2401, 0o2201, 0o2101, 0o2041, 0o2021, 0o2011, 0o2005,
    0o2003, 0o2403, 0o2203, 0o2103, 0o2043, 0o2023, 0o2013, 0o2007,
    # 2_
    0o3403, 0o1401, 0o1201, 0o1101, 0o1041, 0o1021, 0o1011, 0o1005,
    0o1003, 0o1403, 0o1203, 0o1103, 0o1043, 0o1023, 0o1013, 0o1007,
    # 3_
    0o7403, 0o0401, 0o0201, 0o0101, 0o0041, 0o0021, 0o0011, 0o0005,
    0o0003, 0o0403, 0o0203, 0o0103, 0o0043, 0o0023, 0o0013, 0o0007,
    # 4_
    0o0000, 0o5401, 0o5201, 0o5101, 0o5041, 0o5021, 0o5011, 0o5005,
    0o5003, 0o4402, 0o4202, 0o4102, 0o4042, 0o4022, 0o4012, 0o4006,
    # 5_
    0o4000, 0o6401, 0o6201, 0o6101, 0o6041, 0o6021, 0o6011, 0o6005,
    0o6003, 0o2402, 0o2202, 0o2102, 0o2042, 0o2022, 0o2012, 0o2006,
    # 6_
    0o2000, 0o1400, 0o3201, 0o3101, 0o3041, 0o3021, 0o3011, 0o3005,
    0o3003, 0o1402, 0o6000, 0o1102, 0o1042, 0o1022, 0o1012, 0o1006,
    # 7_
    0o7000, 0o7401, 0o7201, 0o7101, 0o7041, 0o7021, 0o7011, 0o7005,
    0o7003, 0o0402, 0o0202, 0o0102, 0o0042, 0o0022, 0o0012, 0o0006,
    # 8_
    0o5402, 0o5400, 0o5200, 0o5100, 0o5040, 0o5020, 0o5010, 0o5004,
    0o5002, 0o5001, 0o5202, 0o5102, 0o5042, 0o5022, 0o5012, 0o5006,
    # 9_
    0o6402, 0o6400, 0o6200, 0o6100, 0o6040, 0o6020, 0o6010, 0o6004,
    0o6002, 0o6001, 0o6202, 0o6102, 0o6042, 0o6022, 0o6012, 0o6006,
    # A_
    0o3402, 0o3400, 0o3200, 0o3100, 0o3040, 0o3020, 0o3010, 0o3004,
    0o3002, 0o3001, 0o3202, 0o3102, 0o3042, 0o3022, 0o3012, 0o3006,
    # B_
    0o7402, 0o7400, 0o7200, 0o7100, 0o7040, 0o7020, 0o7010, 0o7004,
    0o7002, 0o7001, 0o7202, 0o7102, 0o7042, 0o7022, 0o7012, 0o7006,
    # C_
    0o5000, 0o4400, 0o4200, 0o4100, 0o4040, 0o4020, 0o4010, 0o4004,
    0o4002, 0o4001, 0o5203, 0o5103, 0o5043, 0o5023, 0o5013, 0o5007,
    # D_
    0o3000, 0o2400, 0o2200, 0o2100, 0o2040, 0o2020, 0o2010, 0o2004,
    0o2002, 0o2001, 0o6203, 0o6103, 0o6043, 0o6023, 0o6013, 0o6007,
    # E_
    0o1202, 0o3401, 0o1200, 0o1100, 0o1040, 0o1020, 0o1010, 0o1004,
    0o1002, 0o1001, 0o3203, 0o3103, 0o3043, 0o3023, 0o3013, 0o3007,
    # F_
    0o1000, 0o0400, 0o0200, 0o0100, 0o0040, 0o0020, 0o0010, 0o0004,
    0o0002, 0o0001, 0o7203, 0o7103, 0o7043, 0o7023, 0o7013, 0o7007,
)
"""Column word of each EBCDIC byte 00–FF (octal digits = rows (12,11,0)(1,2,3)(4,5,6)(7,8,9))."""

WORD_TO_EBCDIC: dict[int, int] = dict(zip(EBCDIC_TO_WORD, range(256), strict=True))
"""EBCDIC byte of each valid column word."""

CODEPAGE = "cp037"
"""Python codec that names the character of each EBCDIC byte."""

CHARACTERS: str = (
    "\x00\x01\x02\x03\x9c\t\x86\x7f\x97\x8d\x8e\x0b\x0c\r\x0e\x0f"  # 0_
    "\x10\x11\x12\x13\x9d\x85\x08\x87\x18\x19\x92\x8f\x1c\x1d\x1e\x1f"  # 1_
    "\x80\x81\x82\x83\x84\n\x17\x1b\x88\x89\x8a\x8b\x8c\x05\x06\x07"  # 2_
    "\x90\x91\x16\x93\x94\x95\x96\x04\x98\x99\x9a\x9b\x14\x15\x9e\x1a"  # 3_
    " \xa0âäàáãåçñ¢.<(+|"  # 4_
    "&éêëèíîïìß!$*);¬"  # 5_
    "-/ÂÄÀÁÃÅÇÑ¦,%_>?"  # 6_
    "øÉÊËÈÍÎÏÌ`:#@'=\""  # 7_
    "Øabcdefghi«»ðýþ±"  # 8_
    "°jklmnopqrªºæ¸Æ¤"  # 9_
    "µ~stuvwxyz¡¿ÐÝÞ®"  # A_
    "^£¥·©§¶¼½¾[]¯¨´×"  # B_
    "{ABCDEFGHI\xadôöòóõ"  # C_
    "}JKLMNOPQR¹ûüùúÿ"  # D_
    "\\÷STUVWXYZ²ÔÖÒÓÕ"  # E_
    "0123456789³ÛÜÙÚ\x9f"  # F_
)
"""The character of each EBCDIC byte 00–FF in code page 037: what the :data:`CODEPAGE` codec decodes
``bytes(range(256))`` to (``tests/test_codes.py`` checks), written out because loading the codec costs
a small ``cards decode`` more than this whole table."""

CODE = register(
    Code(
        name="029",
        description="IBM 029 keypunch / EBCDIC card code (code page 037 characters, 256 patterns)",
        encoding=dict(zip(CHARACTERS, EBCDIC_TO_WORD, strict=True)),
        decoding=dict(zip(EBCDIC_TO_WORD, CHARACTERS, strict=True)),
        substitute_char="?",
        substitute_word=EBCDIC_TO_WORD[CHARACTERS.index("?")],
        aliases=("ibm029", "ebcdic"),
    )
)
