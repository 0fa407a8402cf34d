"""Write the event source's sidecar documentation (service_events.yaml, which Galaxy renders) and the JSON schema of its
arguments (schemas/service_events.json) from the source's own DOCUMENTATION and EXAMPLES, after a change to them:

    python tests/utils/eda_sidecar.py

The unit tests (tests/unit/extensions/eda/test_service_events.py) hold both files to the source."""

import ast
import json
import os

import yaml

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "extensions", "eda", "plugins", "event_source")
SOURCE = os.path.join(HERE, "service_events.py")
HEADER = ("# The event source's documentation, as Galaxy shows it: a copy of DOCUMENTATION and EXAMPLES in service_events.py, which a\n"
          "# unit test holds it to (tests/unit/extensions/eda/test_service_events.py); tests/utils/eda_sidecar.py writes it.\n")
TYPES = dict(str="string", path="string", int="integer", float="number", bool="boolean", list="array")
SECRETS = ("password", "api_token")


class Indented(yaml.SafeDumper):
    """Lists indented under their key, as ansible-lint's production profile wants them."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)


def schema(documentation):
    properties = {}
    for name, option in documentation["options"].items():
        if option["type"] not in TYPES:  # eda_feedback_queue: ansible-rulebook's to give, never a rulebook's
            continue
        description = option["description"]
        prop = dict(title=name.replace("_", " ").capitalize(), description=description if isinstance(description, str) else " ".join(description),
                    type=TYPES[option["type"]])
        if option["type"] == "list":
            prop["items"] = dict(type=TYPES[option.get("elements", "str")])
        if "default" in option:
            prop["default"] = option["default"]
        if name in SECRETS:
            prop["writeOnly"] = True
        properties[name] = prop
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:replication.recovery:event_source:service_events",
            "title": "replication.recovery.service_events", "description": documentation["short_description"], "type": "object",
            "properties": properties}


def main():
    with open(SOURCE, encoding="utf-8") as handle:  # read, not run: the source needs the collection on its path
        texts = {node.targets[0].id: node.value.value for node in ast.parse(handle.read()).body
                 if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) in ("DOCUMENTATION", "EXAMPLES")}
    documentation, examples = yaml.safe_load(texts["DOCUMENTATION"]), yaml.safe_load(texts["EXAMPLES"])
    with open(os.path.join(HERE, "service_events.yaml"), "w", encoding="utf-8") as handle:
        handle.write("---\n" + HEADER + yaml.dump(dict(DOCUMENTATION=documentation, EXAMPLES=examples), Dumper=Indented, sort_keys=False,
                                                  width=120, allow_unicode=True))
    with open(os.path.join(HERE, "schemas", "service_events.json"), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(schema(documentation), indent=4, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
