# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The event source as ansible-rulebook loads it (by its path): its arguments, its documentation, the state
file, and main() putting the events of a look on the queue after the state is kept."""

import asyncio
import json
import os

import pytest
import yaml

from ansible_collections.replication.recovery.tests.unit.plugins.plugin_utils.test_events import Service

SOURCE = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "extensions", "eda", "plugins", "event_source", "service_events.py")


def run_by_path(path):
    """The source's globals, as ansible-rulebook runs it by its path (runpy.run_path; ansible-test's collection loader
    takes over run_path's look-up of a path, so the file is run as run_path runs a plain file)."""
    namespace = dict(__name__="service_events", __file__=path)
    with open(path, encoding="utf-8") as handle:
        exec(compile(handle.read(), path, "exec"), namespace)  # pylint: disable=exec-used
    return namespace


PLUGIN = run_by_path(SOURCE)


class Queue:
    def __init__(self):
        self.events = []

    async def put(self, event):
        self.events.append(event)


def test_every_argument_is_documented_and_the_documentation_is_whole():
    documented = yaml.safe_load(PLUGIN["DOCUMENTATION"])
    assert set(documented["options"]) == set(PLUGIN["KNOWN"])
    assert all(option.get("description") and option.get("type") for option in documented["options"].values())
    assert yaml.safe_load(PLUGIN["EXAMPLES"])[0]["sources"][0]["replication.recovery.service_events"]["projects"] == ["production"]


@pytest.mark.parametrize("args, said", [
    ({"api_url": "http://127.0.0.1:1/api/latest", "username": "u", "password": "p", "pollinterval": 5}, "unknown arguments: pollinterval"),
    ({"api_url": "http://127.0.0.1:1/api/latest", "username": "u", "password": "p", "interval": "soon"}, None),
    ({"api_url": "http://127.0.0.1:1/api/latest"}, "no credentials"),
    ({"api_url": "http://127.0.0.1:1/api/latest", "api_token": "t", "projects": [1]}, "projects must be a list"),
    ({"api_url": "http://127.0.0.1:1/api/latest", "api_token": "t", "lag_threshold": "high"}, "lag_threshold must be a number"),
])
def test_wrong_arguments_are_named(args, said, monkeypatch):
    for name in ("URL", "USERNAME", "PASSWORD", "API_TOKEN"):
        monkeypatch.delenv("REPLICATION_SERVICE_" + name, raising=False)
    if said is None:  # the interval is read by main(), before any look
        with pytest.raises(ValueError, match="interval must be a number"):
            asyncio.run(PLUGIN["main"](Queue(), dict(args, once=True)))
        return
    with pytest.raises(ValueError, match=said):
        PLUGIN["watcher_from"](args)


def test_the_connection_comes_from_the_environment_as_for_the_modules(monkeypatch):
    monkeypatch.setenv("REPLICATION_SERVICE_URL", "http://127.0.0.1:1/api/latest")
    monkeypatch.setenv("REPLICATION_SERVICE_API_TOKEN", "token-from-awx")
    monkeypatch.setenv("REPLICATION_SERVICE_PASSWORD", "")  # an AWX credential injects every field, empty when blank
    watcher = PLUGIN["watcher_from"]({"projects": "prod-*"})
    assert watcher.client.api_url == "http://127.0.0.1:1/api/latest" and watcher.client.has_credentials and watcher.wanted == ["prod-*"]


def test_a_state_file_that_is_not_one_is_refused_naming_it(tmp_path):
    broken = tmp_path / "state.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match="The state file .*state.json cannot be used.*Move it away"):
        PLUGIN["read_state"](str(broken))
    assert PLUGIN["read_state"](str(tmp_path / "none.json"))["projects"] == {}


def test_main_keeps_the_state_before_it_puts_the_events_and_a_restart_tells_nothing_again(tmp_path, monkeypatch):
    service = Service()
    state_file = str(tmp_path / "kept" / "state.json")
    looks = []

    def look_and_pause(watcher):
        def look():
            looks.append(1)
            if len(looks) == 2:  # between the first look and the second, web-1 is paused
                service.projects["p1"]["machines"][0]["replicationStatus"] = "PAUSED"
            return original(watcher)
        return look

    original = PLUGIN["_events"].Watcher.look
    made = PLUGIN["watcher_from"]

    def watcher_from(args):
        watcher = made(dict(args, api_token="t", api_url="http://127.0.0.1:1/api/latest"))
        watcher.client = service
        watcher.look = look_and_pause(watcher)
        return watcher

    monkeypatch.setitem(PLUGIN["main"].__globals__, "watcher_from", watcher_from)
    queue = Queue()
    asyncio.run(PLUGIN["main"](queue, {"interval": 0, "state_file": state_file, "once": True}))
    assert [(e["type"], e["machine"]["name"]) for e in queue.events] == [("replication_state_changed", "web-1")]
    with open(state_file) as handle:
        kept = json.load(handle)
    assert kept["projects"]["p1"]["machines"]["web-1-id"]["state"] == "paused"
    again = Queue()
    asyncio.run(PLUGIN["main"](again, {"interval": 0, "state_file": state_file, "once": True}))
    assert again.events == []
    assert not [name for name in os.listdir(os.path.dirname(state_file)) if name.endswith(".tmp")]


def test_feedback_asked_without_the_queue_ansible_rulebook_gives_is_refused_naming_it():
    with pytest.raises(ValueError, match="feedback is true, but ansible-rulebook gave no eda_feedback_queue"):
        PLUGIN["feedback_of"]({"feedback": "true"})
    assert PLUGIN["feedback_of"]({"feedback": False, "eda_feedback_queue": object()}) is None


class Rulebook:
    """ansible-rulebook's side of feedback: the events it was given, and its word that its rule engine took one - given for the
    first ``takes`` events, never after (the activation killed)."""

    def __init__(self, takes):
        self.events, self.takes = [], takes
        self.feedback = asyncio.Queue()

    async def put(self, event):
        self.events.append(event)
        if len(self.events) <= self.takes:
            self.feedback.put_nowait(dict(event, meta=dict(uuid=str(len(self.events)))))


def test_with_feedback_an_event_no_rule_took_stays_in_the_state_and_is_told_again_first(tmp_path, monkeypatch):
    """At least once: the event the rulebook never took (its activation killed) is kept as pending in the state file, and
    the source started again tells it before it looks - once taken, it leaves the state; at most once without feedback."""
    service = Service()
    state_file = str(tmp_path / "state.json")
    made = PLUGIN["watcher_from"]
    looks = []

    def watcher_from(args):
        watcher = made(dict(args, api_token="t", api_url="http://127.0.0.1:1/api/latest"))
        watcher.client = service
        original = watcher.look

        def look():
            looks.append(1)
            if len(looks) == 2:  # between the first look and the second, web-1 is paused
                service.projects["p1"]["machines"][0]["replicationStatus"] = "PAUSED"
            return original()
        watcher.look = look
        return watcher

    monkeypatch.setitem(PLUGIN["main"].__globals__, "watcher_from", watcher_from)
    killed = Rulebook(takes=0)
    with pytest.raises(TimeoutError, match="did not say within 0.2 s that its rule engine took the event replication_state_changed; it stays in"):
        asyncio.run(PLUGIN["main"](killed, {"interval": 0, "state_file": state_file, "once": True, "feedback": True,
                                            "eda_feedback_queue": killed.feedback, "feedback_timeout": 0.2}))
    with open(state_file) as handle:
        kept = json.load(handle)
    assert [event["type"] for event in kept["pending"]] == ["replication_state_changed"] and len(killed.events) == 1
    again = Rulebook(takes=5)
    asyncio.run(PLUGIN["main"](again, {"interval": 0, "state_file": state_file, "once": True, "feedback": True,
                                       "eda_feedback_queue": again.feedback}))
    assert [(e["type"], e["machine"]["name"]) for e in again.events] == [("replication_state_changed", "web-1")]
    with open(state_file) as handle:
        assert json.load(handle)["pending"] == []
    unasked = Queue()
    asyncio.run(PLUGIN["main"](unasked, {"interval": 0, "state_file": state_file, "once": True}))
    assert unasked.events == []


EVENT_SOURCES = os.path.join(os.path.dirname(SOURCE))
SCHEMA_TYPES = dict(str="string", path="string", int="integer", float="number", bool="boolean", list="array")


def test_galaxys_copy_of_the_documentation_is_the_sources_own():
    with open(os.path.join(EVENT_SOURCES, "service_events.yaml"), encoding="utf-8") as handle:
        sidecar = yaml.safe_load(handle)
    assert sidecar == dict(DOCUMENTATION=yaml.safe_load(PLUGIN["DOCUMENTATION"]), EXAMPLES=yaml.safe_load(PLUGIN["EXAMPLES"])), \
        "write it again: python tests/utils/eda_sidecar.py"


def test_the_json_schema_of_the_arguments_is_the_documentations_and_takes_the_example():
    """Every argument a rulebook gives (eda_feedback_queue is ansible-rulebook's), of its documented type and default, the
    secrets write-only; the example's arguments valid by it, a wrong type not."""
    import jsonschema  # pylint: disable=import-outside-toplevel
    with open(os.path.join(EVENT_SOURCES, "schemas", "service_events.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    documented = yaml.safe_load(PLUGIN["DOCUMENTATION"])["options"]
    assert set(schema["properties"]) == set(documented) - {"eda_feedback_queue"}
    for name, prop in schema["properties"].items():
        option = documented[name]
        assert prop.get("type") == SCHEMA_TYPES.get(option["type"]) and prop.get("default") == option.get("default"), name
        assert prop["description"] == " ".join([option["description"]] if isinstance(option["description"], str) else option["description"]), \
            "%s: write the schema again: python tests/utils/eda_sidecar.py" % name
        assert prop.get("writeOnly", False) == (name in ("password", "api_token")), name
    example = yaml.safe_load(PLUGIN["EXAMPLES"])[0]["sources"][0]["replication.recovery.service_events"]
    jsonschema.validate(example, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(dict(example, interval="every minute"), schema)


WRONG = dict(int="soon", float="soon", bool="maybe", list=5)


@pytest.mark.parametrize("name", sorted(name for name, option in yaml.safe_load(PLUGIN["DOCUMENTATION"])["options"].items() if option["type"] in WRONG))
def test_an_argument_of_the_wrong_type_is_refused_by_the_schema_and_by_the_source_before_any_request(name, monkeypatch):
    """The documentation, the JSON schema and the source's own reading of its arguments agree: a value of no such type is
    refused by both, the source naming the argument, before it looks at the service."""
    import jsonschema  # pylint: disable=import-outside-toplevel
    with open(os.path.join(EVENT_SOURCES, "schemas", "service_events.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    option = yaml.safe_load(PLUGIN["DOCUMENTATION"])["options"][name]
    args = {"api_url": "http://127.0.0.1:1/api/latest", "api_token": "t", "interval": 0, "once": True, name: WRONG[option["type"]]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(args, schema)

    def no_look(watcher):
        raise AssertionError("the service was asked before %s was read" % name)

    monkeypatch.setattr(PLUGIN["_events"].Watcher, "look", no_look)
    with pytest.raises(ValueError, match=name):
        asyncio.run(PLUGIN["main"](Queue(), args))
