"""The 1013 on a real line: the STR core driven over serial ports, ptys and network ports.

A :class:`~ibm1013.line.station.Station` is one end of a line (:mod:`~ibm1013.line.station`);
:mod:`~ibm1013.line.endpoint` sends and receives whole decks with the resume and verdict
handshakes around them (:mod:`~ibm1013.line.handshake`), the receiving end making every card
durable in its journal before acknowledging it (:mod:`~ibm1013.line.journal`) or feeding it
straight into a running Hercules reader (:mod:`~ibm1013.line.reader_feed`);
:mod:`~ibm1013.line.stream` carries a game played live.  Two ways to watch a line:
:mod:`~ibm1013.line.trace` is what one end saw and did (``--trace``), and
:mod:`~ibm1013.line.datascope` watches both directions from outside (``ibm1013 monitor``).
"""
