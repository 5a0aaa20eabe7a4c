"""At home in Jupyter: a card and a deck show their pictures, a transfer's report a table, a sweep a
pandas DataFrame; and ``examples/throughput.ipynb``, stored without outputs, runs from a fresh kernel.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from external import module

import emulator
import ibm1013
from emulator import Card, Deck

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "examples" / "throughput.ipynb"
HELLO = ROOT / "examples" / "sample-decks" / "hello.cbn"
SVG = "{http://www.w3.org/2000/svg}"


def holes(svg: ET.Element) -> int:
    return sum(1 for e in svg.iter(f"{SVG}rect") if e.get("class") == "hole")


def test_a_card_shows_its_holes():
    card = Card.from_text("HELLO 1013", "029")
    svg = ET.fromstring(card._repr_svg_())  # well-formed
    assert svg.tag == f"{SVG}svg"
    assert holes(svg) == sum(bin(word).count("1") for word in card.columns)  # one rect a hole
    printed = [e.text for e in svg.iter(f"{SVG}text") if e.get("class") == "interpreted"]
    assert printed == ["HELLO1013"]  # the line printed along its top (each character placed alone)


def test_a_deck_shows_its_count_format_and_cards():
    deck = emulator.read_deck(HELLO)
    page = ET.fromstring(deck._repr_html_())  # well-formed: a div, its line, the sheet
    assert page.find("p").text == f"{HELLO}: 5 cards, format cbn, code 029"
    sheet = page.find(f"{SVG}svg")
    numbered = [g.get("class") for g in sheet.iter(f"{SVG}g") if g.get("class").startswith("card-")]
    assert numbered == [f"card-{n}" for n in range(1, 6)]
    assert holes(sheet) == sum(bin(w).count("1") for card in deck for w in card.columns)
    assert ET.fromstring(deck._repr_svg_()).tag == f"{SVG}svg"


def test_a_long_deck_shows_its_first_page_and_says_so():
    deck = Deck([Card.from_text(f"CARD {n}") for n in range(1, 31)], format="text")
    page = ET.fromstring(deck._repr_html_())
    assert page.find("p").text == "30 cards, format text, code 029"
    sheet = page.find(f"{SVG}svg")
    assert len([g for g in sheet.iter(f"{SVG}g") if (g.get("class") or "").startswith("card-")]) == 12
    assert "the first 12 of 30 cards" in "".join(sheet.itertext())
    assert ET.fromstring(Deck()._repr_html_()).find("p").text == "0 cards, format none (in memory), code 029"


def test_a_report_shows_as_the_table_of_its_text():
    report = ibm1013.simulate(HELLO, ber=1e-3, seed=7, cut_at=4)  # a cut: every row is used
    table = ET.fromstring(report._repr_html_())
    rows = [(tr.find("th").text, tr.find("td").text) for tr in table.iter("tr")]
    assert rows == report.rows()
    assert [f"{label:<17} {value}" for label, value in rows] == report.to_text().splitlines()
    assert ("session", f"line cut: {report.message}") == rows[0]
    transfer = ibm1013.transfer(HELLO)
    assert transfer._repr_html_() == transfer.report._repr_html_()


def test_the_theory_shows_as_a_table_of_its_figures():
    figures = ibm1013.work_out(ber=1e-4, columns=20)
    table = ET.fromstring(figures._repr_html_())
    rows = {tr.find("th").text: float(tr.find("td").text) for tr in table.iter("tr")}
    assert rows.keys() == figures.to_dict().keys()
    assert rows == pytest.approx(figures.to_dict(), rel=1e-5)  # printed to 6 significant digits


def test_a_sweep_becomes_a_data_frame():
    module("pandas", extra="pandas")
    result = ibm1013.sweep_grid(cards=4, ber=[0, 1e-3], seeds=2, workers=1)
    runs = result.to_pandas()
    assert list(runs.columns) == list(result.rows[0]) and len(runs) == 4
    assert runs.to_dict("records") == result.rows
    points = result.to_pandas(summary=True)
    assert points["ber"].tolist() == [0.0, 1e-3]
    assert points["cards_per_minute"].tolist() == [s["cards_per_minute"] for s in result.summary]


def test_without_pandas_to_pandas_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError
    result = ibm1013.SweepResult(rows=[], summary=[])
    with pytest.raises(emulator.IbmError, match=r"pip install 'ibm1013\[pandas\]'"):
        result.to_pandas()


def test_the_notebook_is_stored_without_outputs():
    nbformat = module("nbformat")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.outputs == [] and cell.execution_count is None for cell in code)


def test_the_notebook_runs_from_a_fresh_kernel():
    nbformat, nbclient = module("nbformat"), module("nbclient")
    module("ipykernel")
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute()  # raises CellExecutionError on any error
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = [set(o.get("data", {})) for o in outputs]
    assert {"text/html", "image/svg+xml"} <= kinds[0]   # the deck: its count and its picture
    assert "text/html" in kinds[1]                      # the report: a table
    assert "text/html" in kinds[2]                      # the sweep: a DataFrame
    assert "image/png" in kinds[-1]                     # the plot
    assert "100.0" in outputs[1]["data"]["text/html"]   # the clean line's 100 cards a minute
