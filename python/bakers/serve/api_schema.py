"""The OpenAPI description of `bakers serve`'s JSON API, served at ``GET /api/openapi.json``.

Each route's operation is the YAML after ``---`` in its handler's docstring (Starlette's
`SchemaGenerator` reads them); the shapes they refer to are the components here, each
with an example. The examples of positions are made by the code that answers the
requests (`position.state_of`), so they cannot drift from what the API sends.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from typing import Any

from starlette.routing import BaseRoute
from starlette.schemas import SchemaGenerator

from ..deals import Deal
from ..difficulty import GRADES
from ..hinting import HINT_VERDICTS
from .position import MAX_MOVES, Game, state_of

__all__ = ["document", "OPENAPI_PATH"]

if importlib.util.find_spec("yaml") is None:  # SchemaGenerator reads the docstrings with it
    raise ImportError("No module named 'yaml'", name="yaml")

#: Where the description is served.
OPENAPI_PATH = "/api/openapi.json"

_EXAMPLE_DEAL = {"number": 617}
_PLAYING_EXAMPLE = {"game": "freecell", "deal": _EXAMPLE_DEAL, "moves": ["83"]}


def _obj(properties: dict[str, Any], required: tuple[str, ...] = (),
         **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required),
            "additionalProperties": False, **extra}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _body(schema: str, example: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {
        "schema": _ref(schema), "example": example}}}


def _answer(description: str, schema: dict[str, Any], example: Any) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": schema, "example": example}}}


def _components() -> dict[str, Any]:
    """Return the components: the request and answer shapes with their examples."""
    start = state_of(Game.start(Deal.from_number("freecell", 617)))
    moved = Game.start(Deal.from_number("freecell", 617))
    played = moved.board.push("83")
    after = {**state_of(moved), "played": played.notation()}
    cards = {"type": "array", "items": {"type": "string", "example": "QH"}}
    text = {"type": "string"}
    number = {"type": "integer"}
    moves = {"type": "array", "items": text, "maxItems": MAX_MOVES,
             "description": "moves in the notation of docs/notation.md, from the start"}
    state_properties = {
        "game": text, "deal": _ref("DealSpec"), "moves": moves,
        "columns": {"type": "array", "items": cards,
                    "description": "each column from its covered card to its top card"},
        "cells": {"type": "array", "items": {"type": ["string", "null"]}},
        "foundations": {"type": "object", "additionalProperties": number,
                        "description": "the top rank home of each suit (0: none)"},
        "runs": {"type": "array", "items": number,
                 "description": "how many cards on top of each column move together"},
        "home": number, "deck": number, "won": {"type": "boolean"},
        "autocomplete": {"type": "boolean", "description": "whether the rest plays itself"},
    }
    grade = {"grade": "hard", "score": 87.21, "share": 0.0, "playouts": 16,
             "playouts_won": 0, "effort": 0.3607, "expanded": 145, "verdict": "solved",
             "solution_length": 132, "thresholds": [16.53, 30.95], "seconds": 0.086}
    schemas = {
        "DealSpec": {"type": "object", "minProperties": 1, "maxProperties": 1,
                     "properties": {"number": {"type": ["integer", "string"]},
                                    "seed": {"type": ["integer", "string"]}},
                     "description": "a deal by its number, or by the seed of a generated "
                                    "or daily deal (as text above 2**53)",
                     "example": _EXAMPLE_DEAL},
        "DealRequest": _obj({"game": text, "deal": _ref("DealSpec")}, ("game", "deal")),
        "DailyRequest": _obj({"game": text, "date": {"type": "string", "format": "date"}},
                             ("game",)),
        "GenerateRequest": _obj({"game": text, "difficulty": {
            "type": "string", "enum": ["any", *GRADES]}}, ("game",)),
        "Playing": _obj({"game": text, "deal": _ref("DealSpec"), "moves": moves},
                        ("game", "deal")),
        "MoveRequest": _obj({"game": text, "deal": _ref("DealSpec"), "moves": moves,
                             "move": text}, ("game", "deal", "move")),
        "ClickRequest": _obj({"game": text, "deal": _ref("DealSpec"), "moves": moves,
                              "from": {"type": "string", "description": "a column or cell"},
                              "count": number}, ("game", "deal", "from")),
        "State": _obj(state_properties, tuple(state_properties)),
        "Moved": _obj({**state_properties, "played": text}, (*state_properties, "played")),
        "Daily": _obj({**state_properties, "date": {"type": "string", "format": "date"}},
                      (*state_properties, "date")),
        "Generated": _obj({**state_properties, "grade": _ref("Grade")}, tuple(state_properties)),
        "Hint": _obj({"verdict": {"type": "string", "enum": list(HINT_VERDICTS)},
                      "move": {"type": ["string", "null"]},
                      "supermove": {"type": ["string", "null"]},
                      "won_already": {"type": "boolean"}, "most_home": number,
                      "reason": text},
                     ("verdict", "move", "supermove", "won_already", "most_home", "reason")),
        "Autocomplete": _obj({"moves": {"type": ["array", "null"], "items": text}}, ("moves",)),
        "Solved": _obj({"verdict": {"type": "string", "enum": ["win", "no_win", "unknown"]},
                        "moves": {"type": ["array", "null"], "items": text},
                        "reason": text, "most_home": number},
                       ("verdict", "moves", "reason", "most_home")),
        "Grade": _obj({key: {"type": "array", "items": {"type": "number"}}
                       if key == "thresholds" else
                       {"type": "string"} if isinstance(value, str) else
                       {"type": "integer"} if isinstance(value, int) else {"type": "number"}
                       for key, value in grade.items()}, tuple(grade)),
        "Games": _obj({"games": {"type": "array", "items": {"type": "object"}},
                       "grades": {"type": "array", "items": text}}, ("games", "grades")),
        "Error": _obj({"error": text, "status": number, "reason": text}, ("error", "status")),
    }
    responses = {
        "State": _answer("the position", _ref("State"), start),
        "Moved": _answer("the position after the move", _ref("Moved"), after),
        "Daily": _answer("the day's deal", _ref("Daily"), {**start, "date": "2026-12-05"}),
        "Generated": _answer("a new winnable deal", _ref("Generated"),
                             {**start, "grade": grade}),
        "Hint": _answer("the hint", _ref("Hint"), {
            "verdict": "win", "move": "83", "supermove": "83", "won_already": False,
            "most_home": 52, "reason": ""}),
        "Autocomplete": _answer("the moves that finish the game, or null",
                                _ref("Autocomplete"), {"moves": None}),
        "Solved": _answer("the engine's verdict and line", _ref("Solved"), {
            "verdict": "win", "moves": ["83", "4a", "46"], "reason": "", "most_home": 52}),
        "Grade": _answer("the deal's grade", _ref("Grade"), grade),
        "Games": _answer("every game with its rules, and the grades", _ref("Games"), {
            "games": [{"name": "freecell", "title": "FreeCell", "numbers": [1, 8589934591]}],
            "grades": list(GRADES)}),
        "Error": _answer("a bad request (400; a body too large: 413, not sent as JSON: "
                         "415, an unknown game: 404, an illegal move: 422), or 503 when "
                         "the engine is busy or the server stops",
                         _ref("Error"), {"error": "unknown game 'spider'", "status": 404}),
    }
    request_bodies = {
        "Deal": _body("DealRequest", {"game": "freecell", "deal": _EXAMPLE_DEAL}),
        "Daily": _body("DailyRequest", {"game": "freecell", "date": "2026-12-05"}),
        "Generate": _body("GenerateRequest", {"game": "freecell", "difficulty": "easy"}),
        "Playing": _body("Playing", _PLAYING_EXAMPLE),
        "Move": _body("MoveRequest", {**_PLAYING_EXAMPLE, "moves": [], "move": "83"}),
        "Click": _body("ClickRequest", {**_PLAYING_EXAMPLE, "moves": [], "from": "3",
                                        "count": 1}),
    }
    return {"schemas": schemas, "responses": responses, "requestBodies": request_bodies}


def document(routes: Sequence[BaseRoute], version: str) -> dict[str, Any]:
    """Return the OpenAPI document of the app's ``routes``."""
    generator = SchemaGenerator({
        "openapi": "3.1.0",
        "info": {"title": "bakers serve", "version": version,
                 "description": "The games of bakers in a browser: deals, positions "
                                "checked by the referee, hints, solves and grades. Every "
                                "POST takes a JSON object sent with Content-Type: "
                                "application/json. See docs/serve.md."},
        "components": _components(),
    })
    return generator.get_schema(list(routes))
