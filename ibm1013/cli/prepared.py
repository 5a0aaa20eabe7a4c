"""What ``ibm1013`` answers without argparse (:mod:`ibm1013.cli.start`), as argparse answered it.

Written by ``python -m ibm1013.cli.prepare`` from the parser itself: do not edit (``tests/test_start.py``
fails when this differs from what the parser answers now).
"""


PYTHON = (3, 11)
"""The Python that argparse ran in: its help reads differently from one version to another, so these
answers are given there alone."""
HELP_ANSWERS = {(): ('stderr', 2), ('-h',): ('stdout', 0), ('--help',): ('stdout', 0)}
"""The command lines answered with the help: the stream it goes to, the exit status."""
HELP = {
    80: (
        'usage: ibm1013 [-h] [--version] COMMAND ...\n'
        '\n'
        'Punched cards, card decks and the IBM 1013 Card Transmission Terminal.\n'
        '\n'
        'positional arguments:\n'
        '  COMMAND\n'
        '    cards        punched-card decks: encode, decode, convert, show, info;\n'
        '                 sort, select, merge …\n'
        '    simulate     simulate sending a deck between two IBM 1013s (SimPy)\n'
        '    send         send a card deck over a serial port as a 1013 would\n'
        '    receive      receive a card deck over a serial port as a 1013 would\n'
        '    ports        list the serial ports of this machine\n'
        "    line         a virtual line: two raw ptys joined at the 1013's bit rate\n"
        '    rje          remote job entry: send a job deck, then receive its output\n'
        "    rje-host     the computer's end of remote job entry: a job into the\n"
        '                 reader, its output back\n'
        '    monitor      a datascope: watch one or two directions of a line without\n'
        '                 taking part\n'
        '    games        list the solitaire games and their options\n'
        '    deck         playing-card packs\n'
        '    deal         deal a game: show it, or punch it into a deck\n'
        '    play         play a game in the terminal, or replay a move script\n'
        '    solve        search for a winning move list\n'
        '    demo         deal a game, punch it, send it between two simulated 1013s,\n'
        '                 resume it\n'
        '    sweep        simulate transfers over a grid of line settings (cards/min\n'
        '                 with 95 % CI)\n'
        '    plot         draw the results of a sweep\n'
        '    theory       work out cards/min, retransmissions, give-ups and undetected\n'
        '                 errors (no simulation)\n'
        '    stats        games played and won, streaks, best moves and times\n'
        '    watch        watch a game streamed from the far end of PORT, move by move\n'
        '    simulate-play\n'
        '                 a game streamed over the simulated line\n'
        '    completion   print a shell completion script (bash or zsh)\n'
        "    manpage      write the manual page (roff), generated from these commands'\n"
        '                 help\n'
        '\n'
        'options:\n'
        '  -h, --help     show this help message and exit\n'
        '  --version      print the version and exit\n'
        '\n'
        "Run 'ibm1013 COMMAND -h' for the options of a command.\n"
    ),
    100: (
        'usage: ibm1013 [-h] [--version] COMMAND ...\n'
        '\n'
        'Punched cards, card decks and the IBM 1013 Card Transmission Terminal.\n'
        '\n'
        'positional arguments:\n'
        '  COMMAND\n'
        '    cards        punched-card decks: encode, decode, convert, show, info; sort, select, me'
        'rge …\n'
        '    simulate     simulate sending a deck between two IBM 1013s (SimPy)\n'
        '    send         send a card deck over a serial port as a 1013 would\n'
        '    receive      receive a card deck over a serial port as a 1013 would\n'
        '    ports        list the serial ports of this machine\n'
        "    line         a virtual line: two raw ptys joined at the 1013's bit rate\n"
        '    rje          remote job entry: send a job deck, then receive its output\n'
        "    rje-host     the computer's end of remote job entry: a job into the reader, its output"
        ' back\n'
        '    monitor      a datascope: watch one or two directions of a line without taking part\n'
        '    games        list the solitaire games and their options\n'
        '    deck         playing-card packs\n'
        '    deal         deal a game: show it, or punch it into a deck\n'
        '    play         play a game in the terminal, or replay a move script\n'
        '    solve        search for a winning move list\n'
        '    demo         deal a game, punch it, send it between two simulated 1013s, resume it\n'
        '    sweep        simulate transfers over a grid of line settings (cards/min with 95 % CI)\n'
        '    plot         draw the results of a sweep\n'
        '    theory       work out cards/min, retransmissions, give-ups and undetected errors (no\n'
        '                 simulation)\n'
        '    stats        games played and won, streaks, best moves and times\n'
        '    watch        watch a game streamed from the far end of PORT, move by move\n'
        '    simulate-play\n'
        '                 a game streamed over the simulated line\n'
        '    completion   print a shell completion script (bash or zsh)\n'
        "    manpage      write the manual page (roff), generated from these commands' help\n"
        '\n'
        'options:\n'
        '  -h, --help     show this help message and exit\n'
        '  --version      print the version and exit\n'
        '\n'
        "Run 'ibm1013 COMMAND -h' for the options of a command.\n"
    ),
    102: (
        'usage: ibm1013 [-h] [--version] COMMAND ...\n'
        '\n'
        'Punched cards, card decks and the IBM 1013 Card Transmission Terminal.\n'
        '\n'
        'positional arguments:\n'
        '  COMMAND\n'
        '    cards        punched-card decks: encode, decode, convert, show, info; sort, select, me'
        'rge …\n'
        '    simulate     simulate sending a deck between two IBM 1013s (SimPy)\n'
        '    send         send a card deck over a serial port as a 1013 would\n'
        '    receive      receive a card deck over a serial port as a 1013 would\n'
        '    ports        list the serial ports of this machine\n'
        "    line         a virtual line: two raw ptys joined at the 1013's bit rate\n"
        '    rje          remote job entry: send a job deck, then receive its output\n'
        "    rje-host     the computer's end of remote job entry: a job into the reader, its output"
        ' back\n'
        '    monitor      a datascope: watch one or two directions of a line without taking part\n'
        '    games        list the solitaire games and their options\n'
        '    deck         playing-card packs\n'
        '    deal         deal a game: show it, or punch it into a deck\n'
        '    play         play a game in the terminal, or replay a move script\n'
        '    solve        search for a winning move list\n'
        '    demo         deal a game, punch it, send it between two simulated 1013s, resume it\n'
        '    sweep        simulate transfers over a grid of line settings (cards/min with 95 % CI)\n'
        '    plot         draw the results of a sweep\n'
        '    theory       work out cards/min, retransmissions, give-ups and undetected errors (no s'
        'imulation)\n'
        '    stats        games played and won, streaks, best moves and times\n'
        '    watch        watch a game streamed from the far end of PORT, move by move\n'
        '    simulate-play\n'
        '                 a game streamed over the simulated line\n'
        '    completion   print a shell completion script (bash or zsh)\n'
        "    manpage      write the manual page (roff), generated from these commands' help\n"
        '\n'
        'options:\n'
        '  -h, --help     show this help message and exit\n'
        '  --version      print the version and exit\n'
        '\n'
        "Run 'ibm1013 COMMAND -h' for the options of a command.\n"
    ),
}
"""The help at a terminal of each width kept (the widest, at this width and up to WIDEST)."""
WIDE_FROM = 102
WIDEST = 1000

DECODE_ARGV = ('cards', 'decode')
DECODE_DECK = 'deck'
DECODE_DEFAULTS = {
    'command': 'cards',
    'cards_command': 'decode',
    'output': '-',
    'code': '029',
    'format': 'auto',
    'lenient': False,
}
DECODE_FUNC = ('ibm1013.cli.decode', 'decode')
"""``cards decode DECK``: where DECK goes, every other value, and the function run."""
