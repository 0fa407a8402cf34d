"""The DR test as AWX runs it: ansible-runner's Python interface, a private data directory, the credential
type's environment (docs/awx/credential_type.yml, its injectors rendered as AWX renders them: every field,
empty when left blank), the rest as extra variables. The job's set_stats artifacts and the reports are
checked, so that AWX's way of running the collection cannot break unnoticed."""

import json
import os

import ansible_runner
import jinja2
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def credential_environment(simulator):
    with open(os.path.join(ROOT, "docs", "awx", "credential_type.yml")) as handle:
        credential_type = yaml.safe_load(handle)
    fields = dict((field["id"], field.get("default", "")) for field in credential_type["inputs"]["fields"])
    fields.update(api_url=simulator.api, username="demo@example.com", password="demo-secret-1")
    fields["tower"] = {"filename": {}}
    return dict((name, jinja2.Template(template).render(**fields)) for name, template in credential_type["injectors"]["env"].items())


def test_the_dr_test_through_ansible_runner_publishes_its_outcome_as_the_jobs_artifacts(tmp_path, simulator, collections_path):
    private = tmp_path / "private"
    reports = tmp_path / "reports"
    (private / "env").mkdir(parents=True)
    environment = credential_environment(simulator)
    assert environment["REPLICATION_SERVICE_API_TOKEN"] == "" and environment["REPLICATION_SERVICE_VALIDATE_CERTS"] == "True"
    environment["ANSIBLE_COLLECTIONS_PATH"] = collections_path
    (private / "env" / "envvars").write_text(json.dumps(environment))
    (private / "env" / "extravars").write_text(json.dumps({
        "dr_test_project": "demo", "dr_test_report_dir": str(reports), "dr_test_poll_interval": 1,
        "dr_test_rpo_target": 3600, "dr_test_rto_target": 3600}))
    (private / "inventory").mkdir()
    # In AWX's execution environment the Python found on localhost is the one with the collection's requirements; here, the runner's.
    (private / "inventory" / "hosts").write_text("localhost ansible_connection=local ansible_python_interpreter={{ ansible_playbook_python }}\n")
    simulator.synced()  # the DR test's health gate wants every machine replicating continuously
    run = ansible_runner.run(private_data_dir=str(private), playbook="replication.recovery.dr_test", quiet=True)
    output = run.stdout.read()
    assert run.status == "successful" and run.rc == 0, output[-4000:]
    assert "demo-secret-1" not in output

    # What AWX keeps as the job's artifacts: the set_stats data, in the playbook_on_stats event.
    [stats] = [event for event in run.events if event["event"] == "playbook_on_stats"]
    artifacts = stats["event_data"]["artifact_data"]
    dr_test = artifacts["dr_test"]
    assert dr_test["result"] == "passed" and dr_test["project"] == "demo" and dr_test["counts"]["passed"] == dr_test["counts"]["machines"] == 5
    assert artifacts["dr_test_projects"]["demo"]["result"] == "passed"
    with open(dr_test["report"]["json"]) as handle:
        report = json.load(handle)
    assert report["result"] == "passed" and report["cleanup_job"]["status"] == "COMPLETED"
    # The run's own files, named after its start, and the plain names: copies of the newest run's.
    forms = [".html", ".json", ".junit.xml", ".md"]
    stem = report["run"]["files"]
    assert stem.startswith("dr_test_demo.2") and report["run"]["reached"] is True
    assert sorted(os.listdir(str(reports))) == sorted(["dr_test_demo" + form for form in forms] + [stem + form for form in forms])
    for form in forms:
        with open(os.path.join(str(reports), stem + form), "rb") as own, open(os.path.join(str(reports), "dr_test_demo" + form), "rb") as plain:
            assert own.read() == plain.read(), form
    # The job's own artifacts directory, as ansible-runner leaves it for the controller.
    assert os.path.exists(os.path.join(run.config.artifact_dir, "rc"))
