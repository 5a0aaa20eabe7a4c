"""A port that cannot be opened is named once, in one line, whatever kind of port it is (issue 50,
item 12: ``send rfc2217://nosuchhost.invalid:23`` said the port twice, in pyserial's words)."""

import pytest
from test_cli_parser import refused

PORTS = [
    ("rfc2217://nosuchhost.invalid:23", "cannot find the host"),
    ("socket://nosuchhost.invalid:23", "cannot find the host"),
    ("rfc2217://nosuchhost.invalid", "give a host and a port"),
    ("socket://:99999", "give a host and a port"),
    ("/nonexistent/tty", "no such port"),
    ("DIRECTORY", "a directory, not a port"),
    ("/dev/null", "not a serial port"),
]


@pytest.mark.parametrize(("port", "reason"), PORTS)
@pytest.mark.parametrize("command", ["send", "receive"])
def test_a_port_that_cannot_be_opened_is_named_once(tmp_path, capsys, command, port, reason):
    port = str(tmp_path) if port == "DIRECTORY" else port
    deck = tmp_path / "deck.txt"
    deck.write_text("HELLO\n")
    argv = [command, port, str(deck)] if command == "send" else [command, port, "-o", str(tmp_path / "o.txt")]
    line = refused(capsys, [*argv, "--timeout", "5"])
    assert line == f"ibm1013: port {port}: {line.split(': ', 2)[2]}" and reason in line, line
    assert line.count(port) == 1 and "Errno" not in line and "could not open" not in line.lower(), line
    assert list(tmp_path.iterdir()) == [deck], "nothing is left behind"
