"""The page at `/` and `/docs` come from the package: every asset is served locally and none names another host."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from boundloop.service.web import STATIC

HOOKS = {"api-key", "sign-in", "question", "ask", "new-conversation"}
MARKDOWN_IT_BANNER = "/*! markdown-it 15.0.3 https://github.com/markdown-it/markdown-it @license MIT */"
MARKDOWN_IT_SHA256 = "d5432491790141da046b1197353705db03264f40b5727f3b4b591f5aba193e30"
ASSET = re.compile(r'(?:href|src)="(assets/[^"]+)"')
IMPORT = re.compile(r'(?:from |import\()"\./([\w-]+\.js)"')  # static imports, and modules loaded when needed


def page_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_the_page_is_served_with_a_same_origin_content_policy(client):
    response = client.get("/")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy and "connect-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert HOOKS <= set(re.findall(r'data-testid="([\w-]+)"', response.text))
    for path in ASSET.findall(response.text):
        asset = client.get("/" + path)
        assert asset.status_code == 200, path
        assert asset.headers["cache-control"] == "no-cache"
    assert client.get("/assets/index.html").status_code == 404  # the page itself only at /, with its policy


def test_every_module_the_page_imports_is_served(client):
    modules = {"main.js"}
    pending = ["main.js"]
    while pending:
        text = client.get(f"/assets/js/{pending.pop()}").text
        for name in IMPORT.findall(text):
            if name not in modules:
                modules.add(name)
                pending.append(name)
    # and no module is dead weight; limits.js is made by the service from the limits' declaration
    assert modules == {p.name for p in (STATIC / "assets" / "js").glob("*.js")} | {"limits.js"}


def test_the_page_names_each_limit_as_declared(client):
    """The page's words for the limits come from `BudgetLimits`' fields: it keeps no list of its own."""
    from boundloop.policies.limits import declared

    served = client.get("/assets/js/limits.js")
    assert served.status_code == 200 and served.headers["content-type"].startswith("text/javascript")
    names = json.loads(served.text.partition("export const LIMITS = ")[2].rstrip().rstrip(";"))
    assert [(n["usage"], n["stop_reason"], n["named"]) for n in names] == [
        (limit.usage, limit.stop_reason, limit.named) for limit in declared()]
    assert "the search limit" in {n["named"] for n in names}
    for module in ("status.js", "trace.js"):  # no list of limits written into the page
        assert "retrieval_calls" not in (STATIC / "assets" / "js" / module).read_text()


def test_no_page_file_names_another_host():
    for path in page_files():
        text = path.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")  # a namespace name, not fetched
        text = text.replace(MARKDOWN_IT_BANNER, "")  # the vendored file's licence banner names its home
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text), path.name


def test_the_vendored_markdown_parser_is_the_published_file_with_its_licences():
    """markdown-it 15.0.3's `dist/browser/markdown-it.esm.min.mjs` from npm, byte for byte (docs/web.md)."""
    vendor = STATIC / "assets" / "vendor" / "markdown-it"
    module = (vendor / "markdown-it.esm.min.mjs").read_bytes()
    assert hashlib.sha256(module).hexdigest() == MARKDOWN_IT_SHA256
    assert module.decode().startswith(MARKDOWN_IT_BANNER)
    assert "MIT" in (vendor / "LICENSE").read_text() and "Vitaly Puzrin" in (vendor / "LICENSE.mdurl").read_text()
    assert "Felix Böhm" in (vendor / "LICENSE.entities").read_text()  # the two libraries bundled in the module


def test_docs_load_swagger_ui_from_this_server(client):
    html = client.get("/docs").text
    urls = re.findall(r'(?:href|src)="([^"]+)"', html)
    assert urls and all(url.startswith("/") and not url.startswith("//") for url in urls)
    assert "/docs/assets/swagger-ui-bundle.js" in urls and "/docs/assets/swagger-ui.css" in urls
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
    assert '"validatorUrl": null' in html  # Swagger UI's default validator is a remote service
    redoc = client.get("/redoc", follow_redirects=False)
    assert redoc.status_code == 307 and redoc.headers["location"] == "docs"


def test_the_page_and_its_assets_stay_out_of_the_api_description(client):
    paths = set(client.get("/openapi.json").json()["paths"])
    assert not {"/", "/docs", "/redoc"} & paths
    assert {"/me", "/runs/{run_id}/passages"} <= paths
