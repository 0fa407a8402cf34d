# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The documentation site as `make docs` builds it (.build/docs/html, or $DOCS_SITE): every link between its pages reaches
its page and the place in it; the pages of a module, a role and a guide drawn by headless Chromium show their heading and
their text. Run by `make test-docs` (in `make test`), after the site is built."""

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SITE = os.environ.get("DOCS_SITE") or os.path.join(ROOT, ".build", "docs", "html")
PAGES = sorted(os.path.relpath(os.path.join(directory, name), SITE) for directory, unused, names in os.walk(SITE) for name in names
               if name.endswith(".html"))


class Page(HTMLParser):
    """A page's links (href and src) and the places in it a link can name (id and name)."""

    def __init__(self, path):
        super(Page, self).__init__()
        self.links, self.places, self.headings, self.heading = [], set(), [], None
        with open(path, encoding="utf-8") as handle:
            self.feed(handle.read())

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.places.update(value for key, value in attrs.items() if key in ("id", "name") and value)
        self.links.extend(attrs[key] for key in ("href", "src") if attrs.get(key))
        if tag == "h1":
            self.heading = ""

    def handle_data(self, data):
        if self.heading is not None:
            self.heading += data

    def handle_endtag(self, tag):
        if tag == "h1" and self.heading is not None:
            self.headings.append(self.heading.replace("\uf0c1", "").strip())
            self.heading = None


PARSED = {}


def parsed(page):
    if page not in PARSED:
        PARSED[page] = Page(os.path.join(SITE, page))
    return PARSED[page]


def test_the_site_is_built_with_every_kind_of_page():
    assert "index.html" in PAGES, "make docs builds the site first"
    for page in ("README.html", "docs/developing.html", "docs/disaster.html", "CHANGELOG.html", "roles/dr_test/README.html",
                 "collections/replication/recovery/service_launch_module.html", "collections/replication/recovery/dr_test_role.html",
                 "collections/replication/recovery/service_inventory.html", "collections/replication/recovery/fleet_health_filter.html",
                 "extensions/eda/plugins/event_source/service_events.html"):
        assert page in PAGES, page


def test_the_event_sources_page_is_drawn_from_its_documentation_every_argument_with_its_default():
    with open(os.path.join(SITE, "extensions", "eda", "plugins", "event_source", "service_events.html"), encoding="utf-8") as handle:
        text = re.sub(r"<[^>]+>", "", handle.read())
    assert parsed("extensions/eda/plugins/event_source/service_events.html").headings == ["replication.recovery.service_events event source"]
    for argument in ("api_url", "state_file", "feedback", "feedback_timeout", "eda_feedback_queue", "lag_threshold"):
        assert argument in text, argument
    assert "at least once" in text and "lag_over_threshold" in text  # the description, and the example


@pytest.mark.parametrize("page", [page for page in PAGES if not page.startswith("_")])
def test_every_link_between_the_sites_pages_reaches_its_page_and_place(page):
    broken = []
    for link in parsed(page).links:
        parts = urlsplit(link)
        if parts.scheme or link.startswith("//"):
            continue  # outside the site
        target = os.path.normpath(os.path.join(os.path.dirname(page), unquote(parts.path))) if parts.path else page
        if not os.path.exists(os.path.join(SITE, target)):
            broken.append("%s: no such file" % link)
        elif parts.fragment and target.endswith(".html") and unquote(parts.fragment) not in parsed(target).places:
            broken.append("%s: no such place in %s" % (link, target))
    assert broken == []


def chromium():
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        pytest.fail("Chromium is not installed: make test-browser installs it from Debian's packages.")
    return found


@pytest.mark.parametrize("page, heading, words", [
    ("collections/replication/recovery/service_launch_module.html", "replication.recovery.service_launch module",
     ["Parameters", "launch_type", "Return Values"]),
    ("collections/replication/recovery/readiness_role.html", "replication.recovery.readiness role", ["readiness_rpo_target"]),
    ("docs/disaster.html", "When disaster strikes", ["Recovering from ransomware", "failover_point_in_time"]),
])
def test_the_pages_of_a_module_a_role_and_a_guide_in_chromium(page, heading, words, tmp_path):
    url = "file://" + os.path.join(SITE, page)
    dom = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", url], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    text = re.sub(r"<[^>]+>", " ", dom)
    assert heading in re.sub(r"\s+", " ", text) and all(word in text for word in words)
    shot = str(tmp_path / "page.png")
    subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1000",
                    "--screenshot=%s" % shot, url], capture_output=True, timeout=120, check=True)
    image = Image.open(shot).convert("RGB")
    # Drawn: the theme's dark top bar, and text on the page's light body (dark pixels right of the navigation).
    assert sum(1 for x in range(0, 1280, 8) if sum(image.getpixel((x, 10))) < 150) > 100
    body = [image.getpixel((x, y)) for x in range(350, 1250, 4) for y in range(120, 900, 4)]
    assert sum(1 for pixel in body if sum(pixel) < 300) > 500
