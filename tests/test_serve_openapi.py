"""The OpenAPI description that `bakers serve` serves: every route described, with an
example, and the examples what the API really takes and answers."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra (starlette) is not installed")
pytest.importorskip("yaml", reason="the serve extra (pyyaml) is not installed")
pytest.importorskip("httpx", reason="httpx (the test extra) is not installed")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2", category=Warning)
    from starlette.testclient import TestClient  # noqa: E402

from bakers.hinting import forget_lines  # noqa: E402
from bakers.serve import create_app  # noqa: E402
from starlette.routing import Route  # noqa: E402


@pytest.fixture(scope="module")
def served():
    app = create_app()
    with TestClient(app, base_url="http://localhost") as client:
        document = client.get("/api/openapi.json")
        assert document.status_code == 200
        yield app, client, document.json()
    forget_lines()  # the hints here must not be found by later tests of `hint`


def resolve(document: dict[str, Any], node: Any) -> Any:
    """Return ``node`` with its ``$ref`` (if any) followed, failing for a broken one."""
    while isinstance(node, dict) and "$ref" in node:
        place: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            assert part in place, f"broken reference {node['$ref']}"
            place = place[part]
        node = place
    return node


def operations(app) -> list[tuple[str, str]]:
    return sorted((route.path, method.lower()) for route in app.routes
                  if isinstance(route, Route) and route.path.startswith("/api/")
                  for method in route.methods or () if method != "HEAD")


def test_every_route_of_the_api_is_described(served) -> None:
    app, _, document = served
    assert document["openapi"].startswith("3.")
    described = sorted((path, method) for path, item in document["paths"].items()
                       for method in item)
    assert described == operations(app)
    assert len(described) >= 12
    for path, method in described:
        operation = document["paths"][path][method]
        assert operation["summary"], path
        assert "200" in operation["responses"], path


def test_every_answer_and_body_has_an_example(served) -> None:
    _, _, document = served
    for path, item in document["paths"].items():
        if path == "/api/openapi.json":
            continue
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                content = resolve(document, answer)["content"]["application/json"]
                assert "example" in content, (path, status)
                resolve(document, content["schema"])
            if method == "post":
                body = resolve(document, operation["requestBody"])
                assert "example" in body["content"]["application/json"], path


def test_the_examples_are_what_the_api_takes_and_answers(served) -> None:
    _, client, document = served
    for path, item in document["paths"].items():
        if path == "/api/openapi.json":
            continue
        for method, operation in item.items():
            if method == "post":
                body = resolve(document, operation["requestBody"])["content"]
                answer = client.post(path, json=body["application/json"]["example"])
            else:
                answer = client.get(path)
            assert answer.status_code == 200, (path, answer.text)
            documented = resolve(document, operation["responses"]["200"])
            content = documented["content"]["application/json"]
            schema = resolve(document, content["schema"])
            got = answer.json()
            # every key answered is documented, and every required one is answered
            undocumented = set(got) - set(schema["properties"])
            assert not undocumented, (path, undocumented)
            assert set(schema["required"]) <= set(got), path
            assert set(schema["required"]) <= set(content["example"]), path
