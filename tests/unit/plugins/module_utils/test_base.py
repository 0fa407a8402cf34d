# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The module base's look-ups, on a stand-in module that borrows them from ServiceModule."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest

from ansible_collections.replication.recovery.plugins.module_utils._base import TABLE_KEYS, ServiceModule, _empty_text, _structure_problem
from ansible_collections.replication.recovery.plugins.module_utils._machine_reads import resolve_machines, target_machine_of
from ansible_collections.replication.recovery.plugins.module_utils._points import point_in_time_option, points_asked, points_at, points_of
from ansible_collections.replication.recovery.plugins.module_utils._client import ServiceError
from ansible_collections.replication.recovery.plugins.module_utils._in_process import Answered, given
from ansible_collections.replication.recovery.plugins.module_utils._session import Refused, Session
from ansible_collections.replication.recovery.tests.unit.plugins.module_utils.path_client import Counted, PathClient, set_up_without_ansible

PROJECT_ID = "2f6f2c1e-8a0b-4c8e-9a55-6a3d2b1c0e9f"


class Failed(Exception):
    pass


class Module(ServiceModule):
    """ServiceModule without AnsibleModule's set-up: a client that answers from a dictionary, given
    parameters and option table, and failures and warnings recorded."""

    def __init__(self, answers, check_mode=False, params=None, table=None):
        set_up_without_ansible(self, PathClient(answers), params, check_mode)
        self.argument_spec = dict((option, dict((k, v) for k, v in row.items() if k not in TABLE_KEYS)) for option, row in (table or {}).items())
        self.table = dict((option, dict((k, v) for k, v in row.items() if k in TABLE_KEYS)) for option, row in (table or {}).items())

    def fail_json(self, msg, **kwargs):
        raise Failed(msg)

    def warn(self, warning):
        self.warnings.append(warning)


def test_a_project_named_by_its_id_costs_one_read_of_it():
    module = Module({"/projects/" + PROJECT_ID: {"id": PROJECT_ID, "name": "production"}})
    assert module.lookup("project", PROJECT_ID)["name"] == "production"
    assert module.client.requests == ["/projects/" + PROJECT_ID]


def test_an_unknown_project_id_fails_clearly():
    with pytest.raises(Failed, match="Project %s was not found" % PROJECT_ID):
        Module({}).lookup("project", PROJECT_ID)


def test_other_errors_of_the_read_are_not_hidden():
    with pytest.raises(ServiceError):
        Module({"/projects/" + PROJECT_ID: ServiceError("GET", "/projects", 503, "internalError", "busy")}).lookup("project", PROJECT_ID)


def test_a_project_named_by_its_name_is_found_in_one_list():
    module = Module({"/projects": [{"id": PROJECT_ID, "name": "production"}, {"id": "other", "name": "staging"}]})
    assert module.lookup("project", "production")["id"] == PROJECT_ID
    with pytest.raises(Failed, match="Project 'nowhere' was not found. Known: production, staging."):
        module.lookup("project", "nowhere")
    assert module.client.requests == ["/projects"]  # the list is read once per run


SPEC = dict(
    name=dict(type="str"),
    machines=dict(type="list", elements="str"),
    proxy_url=dict(type="str"),
    scripts=dict(type="dict", options=dict(preboot=dict(type="list", elements="str"))),
    steps=dict(type="list", elements="dict", options=dict(name=dict(type="str"), wait=dict(type="dict"))),
)


CREDENTIALS_ID = "7c1d5e0a-3b2f-4e6d-8a9c-0f1e2d3c4b5a"
REGIONS = "/cloudCredentials/%s/regions" % CREDENTIALS_ID
US_EAST = {"id": "b1e8c0d2-5a4f-4c3b-9e2d-1f0a9b8c7d6e", "name": "us-east-1",
           "subnets": [{"subnetId": "subnet-0a1b", "name": "private-a"}, {"subnetId": "subnet-0c2d", "name": "private-b"}]}


def test_the_diff_shows_the_names_of_what_was_looked_up_beside_the_ids():
    module = Module({"/cloudCredentials": [{"id": CREDENTIALS_ID, "name": "aws-dr"}], REGIONS: [US_EAST]})
    module.lookup("cloud_credentials", "aws-dr")
    region = module.lookup("region", "us-east-1", credentials=CREDENTIALS_ID)
    assert module.resolve("subnet", "private-a", region=region) == "subnet-0a1b"
    diff = {"before": {"subnetId": "subnet-0c2d", "tags": [{"key": "team", "value": "dr"}]},
            "after": {"subnetId": "subnet-0a1b", "cloudCredentials": CREDENTIALS_ID, "region": US_EAST["id"], "zone": "a"}}
    assert module.named(diff) == {
        "before": {"subnetId": "subnet-0c2d (private-b)", "tags": [{"key": "team", "value": "dr"}]},
        "after": {"subnetId": "subnet-0a1b (private-a)", "cloudCredentials": CREDENTIALS_ID + " (aws-dr)",
                  "region": US_EAST["id"] + " (us-east-1)", "zone": "a"}}


def test_a_name_not_found_fails_a_real_run():
    module = Module({"/projects": []})
    with pytest.raises(Failed, match="Project 'production' was not found. Known: none."):
        module.lookup("project", "production")


def test_check_mode_predicts_what_an_earlier_task_would_create_and_reads_nothing_under_it():
    module = Module({"/projects": [], "/cloudCredentials": []}, check_mode=True)
    project = module.lookup("project", "production")
    assert project == {"id": "production (predicted)", "name": "production"}
    assert module.list("/projects/%s/replicationConfigurations" % project["id"]) == []
    credentials = module.lookup("cloud_credentials", "aws-dr")
    region = module.lookup("region", "us-east-1", credentials=credentials)
    assert module.resolve("subnet", "private-a", region=region) == "private-a (predicted)"
    assert module.client.requests == ["/projects", "/cloudCredentials"], "nothing is asked about what does not exist"
    assert module.warnings == [
        "Check mode: Project 'production' does not exist yet; taken as one an earlier task of this run creates. "
        "A real run fails if it is still missing.",
        "Check mode: Cloud credentials 'aws-dr' does not exist yet; taken as one an earlier task of this run creates. "
        "A real run fails if it is still missing."], "one warning for each thing predicted, none for what is under it"


def test_check_mode_says_where_it_cannot_go_further_when_a_read_needs_what_it_predicted():
    module = Module({"/projects": []}, check_mode=True)

    def work():
        project = module.lookup("project", "production")
        module.client.get("/projects/%s/jobs" % project["id"])
    module.work = work
    with pytest.raises(Failed, match=r"^Check mode cannot go further: this task reads /projects/production, which does not exist yet"):
        module.run()


def test_check_mode_still_fails_for_an_unknown_id_or_an_item_missing_from_a_real_region():
    module = Module({REGIONS: [US_EAST]}, check_mode=True)
    with pytest.raises(Failed, match="Project %s was not found" % PROJECT_ID):
        module.lookup("project", PROJECT_ID)
    region = module.lookup("region", "us-east-1", credentials=CREDENTIALS_ID)
    with pytest.raises(Failed, match="Region us-east-1 has no subnet 'private-z'. Known: private-a, private-b."):
        module.resolve("subnet", "private-z", region=region)


@pytest.mark.parametrize("params,problem", [
    (dict(scripts={"preboot": ["a"]}), None),
    (dict(scripts="preboot=a"), None),  # key=value text, as AnsibleModule takes it
    (dict(scripts='{"preboot": ["a"]}'), None),
    (dict(scripts=[1, 2]), "scripts must be a dictionary, not list [1, 2]."),
    (dict(scripts="not a dictionary"), "scripts must be a dictionary, not str 'not a dictionary'."),
    (dict(steps=[{"name": "db"}, "web"]), "steps[1] must be a dictionary, not str 'web'."),
    (dict(steps="db"), "steps must be a list of dictionaries, not str 'db'."),
    (dict(steps=[{"name": "db", "wait": [5]}]), "steps[0].wait must be a dictionary, not list [5]."),
])
def test_structured_options_are_checked_as_given(params, problem):
    assert _structure_problem(SPEC, params) == problem


@pytest.mark.parametrize("params,empty", [
    (dict(name="web", machines=["a"], proxy_url=""), None),
    (dict(name=" "), "name"),
    (dict(machines=["a", ""]), "machines"),
    (dict(steps=[{"name": "db"}, {"name": ""}]), "steps[1].name"),
    (dict(scripts={"preboot": ["", "x"]}), "scripts.preboot"),
])
def test_empty_texts_are_found(params, empty):
    assert _empty_text(SPEC, params, allowed=("proxy_url",)) == empty


# -- the one look-up rule, for every kind ------------------------------------------------------

PROJECT = {"id": PROJECT_ID, "name": "production"}
MACHINES = "/projects/%s/machines" % PROJECT_ID
PLANS = "/projects/%s/recoveryPlans" % PROJECT_ID
WEB_1 = {"id": "3c1e9a4b-2d5f-4e6a-8b7c-9d0e1f2a3b4c", "sourceProperties": {"name": "web-1"}, "replica": "5e2c1d3a-7b8f-4a6e-9c0d-1e2f3a4b5c6d"}
DB_1 = {"id": "4d2f0b5c-3e6a-4f7b-9c8d-0e1f2a3b4c5d", "sourceProperties": {"name": "db-1"}}
# kind, scope, path of its list, items, the name of the first
KINDS_UNDER_TEST = [
    ("cloud", {}, "/clouds", [{"id": "5b9e2b7e-0a43-5c53-9e7c-6b0f6f0d2b51", "name": "AWS"}, {"id": "x", "name": "GCP"}], "AWS"),
    ("cloud_credentials", {}, "/cloudCredentials", [{"id": CREDENTIALS_ID, "name": "aws-dr"}, {"id": "y", "name": "aws-main"}], "aws-dr"),
    ("project", {}, "/projects", [PROJECT, {"id": "z", "name": "staging"}], "production"),
    ("region", {"credentials": CREDENTIALS_ID}, REGIONS, [US_EAST, {"id": "w", "name": "eu-west-1"}], "us-east-1"),
    ("machine", {"project": PROJECT}, MACHINES, [WEB_1, DB_1], "web-1"),
    ("recovery_plan", {"project": PROJECT}, PLANS, [{"id": "6f3a1c5d-4e7b-4a8c-9d0e-1f2a3b4c5d6e", "name": "tiers"}, {"id": "v", "name": "all"}], "tiers"),
]


@pytest.mark.parametrize("kind,scope,path,items,name", KINDS_UNDER_TEST)
def test_every_kind_is_found_by_name_or_id_in_one_list_read_once_per_run(kind, scope, path, items, name):
    module = Module({path: dict(items=items) if kind == "recovery_plan" else items})
    assert module.lookup(kind, name, **scope) is items[0]
    assert module.resolve(kind, name, **scope) == items[0]["id"]
    assert module.lookup(kind, items[1]["id"], **scope) is items[1] or kind == "project"  # a project by ID is read on its own
    assert module.lookup(kind, "nowhere", required=False, **scope) is None
    assert module.client.requests == [path], "one request for the kind, whatever is asked"


@pytest.mark.parametrize("kind,scope,path,items,name", KINDS_UNDER_TEST)
def test_an_id_resolves_without_a_request(kind, scope, path, items, name):
    module = Module({})
    assert module.resolve(kind, items[0]["id"], **scope) == items[0]["id"]
    assert module.client.requests == []


@pytest.mark.parametrize("kind,scope,path,items,name", KINDS_UNDER_TEST)
def test_two_of_one_name_are_ambiguous_for_every_kind(kind, scope, path, items, name):
    twin = dict(items[0], id="00000000-0000-4000-8000-000000000000")
    module = Module({path: dict(items=[items[0], twin]) if kind == "recovery_plan" else [items[0], twin]})
    with pytest.raises(Failed, match="name %r is ambiguous: 2 .* have it; give the ID \\(one of 00000000-" % name):
        module.lookup(kind, name, **scope)


@pytest.mark.parametrize("kind,scope,path,items,name", KINDS_UNDER_TEST)
def test_a_name_not_found_fails_naming_what_is_known(kind, scope, path, items, name):
    module = Module({path: dict(items=items) if kind == "recovery_plan" else items})
    with pytest.raises(Failed, match="'nowhere'.* Known: ") as failure:
        module.lookup(kind, "nowhere", **scope)
    assert name in str(failure.value)


def test_ambiguous_machines_name_their_project():
    module = Module({MACHINES: [WEB_1, dict(WEB_1, id="00000000-0000-4000-8000-000000000000")]})
    with pytest.raises(Failed, match="Machine name 'web-1' is ambiguous: 2 machines of project 'production' have it"):
        resolve_machines(module, PROJECT, ["web-1"])


def test_a_target_machine_is_read_once_per_run_and_again_after_a_job():
    target = "/projects/%s/replicas/%s" % (PROJECT_ID, WEB_1["replica"])
    module = Module({target: {"id": WEB_1["replica"], "machineCloudState": "running"}})
    assert target_machine_of(module, PROJECT, WEB_1)["machineCloudState"] == "running"
    assert target_machine_of(module, PROJECT, WEB_1)["machineCloudState"] == "running"
    assert module.client.requests == [target]
    module.forget("/projects/%s/replicas/" % PROJECT_ID)
    target_machine_of(module, PROJECT, WEB_1)
    assert module.client.requests == [target, target]


def test_a_refusal_fails_the_task_with_what_it_shows_and_whether_the_module_changed_something():
    """A job that did not end in time (module_utils._jobs refuses it, with the job) fails the module's task with the job -
    changed, since the module started it."""

    class Waited(ServiceModule):
        def __init__(self):
            set_up_without_ansible(self, PathClient({}))
            self.no_log_values = set()

        def work(self):
            self.changed = True  # it started the job
            raise Refused("Job j1 (TEST_LAUNCH) did not end within 10 seconds.", job=dict(id="j1", status="STARTED"))

    with given({}):  # the module answers its result here rather than exiting (module_utils._in_process)
        with pytest.raises(Answered) as answered:
            Waited().run()
    assert answered.value.result == dict(failed=True, changed=True, msg="Job j1 (TEST_LAUNCH) did not end within 10 seconds.",
                                         job=dict(id="j1", status="STARTED"))


def test_machines_are_resolved_in_the_order_given_without_repeats():
    module = Module({MACHINES: [WEB_1, DB_1]})
    assert resolve_machines(module, PROJECT, ["db-1", WEB_1["id"], "web-1"]) == [DB_1, WEB_1]
    with pytest.raises(Refused, match="Project 'production' has no machine 'app-1', 'app-2'. Known: db-1, web-1."):
        resolve_machines(module, PROJECT, ["app-1", "web-1", "app-2"])  # the module's run() fails its task with the words


def test_a_thousand_machines_named_cost_one_pass_over_their_list_not_one_each():
    machines = [Counted(id="%08d-0000-4000-8000-000000000000" % number, sourceProperties=dict(name="m-%04d" % number)) for number in range(1000)]
    module = Module({MACHINES: machines})
    Counted.reads = 0
    named = resolve_machines(module, PROJECT, ["m-%04d" % number for number in range(1000)] + [machines[7]["id"]])
    assert [machine["id"] for machine in named] == [machine["id"] for machine in machines]
    assert Counted.reads <= 2 * len(machines)  # the index, and the names remembered for the diff: once each
    assert module.client.requests == [MACHINES]


def test_a_thousand_machines_given_points_cost_one_pass_over_them():
    machines = [Counted(id="%08d-0000-4000-8000-000000000000" % number, sourceProperties=dict(name="m-%04d" % number)) for number in range(1000)]
    Counted.reads = 0
    chosen = points_asked(Module({}), PROJECT, machines, None, given=dict(("m-%04d" % number, "point-%d" % number) for number in range(1000)),
                          check=False)
    assert chosen[machines[999]["id"]] == dict(id="point-999") and len(chosen) == 1000
    assert Counted.reads <= len(machines)


def test_a_list_read_anew_is_looked_up_anew():
    module = Module({MACHINES: [WEB_1]})
    assert module.lookup("machine", "web-1", project=PROJECT)["id"] == WEB_1["id"]
    module.client.answers[MACHINES] = [DB_1]
    module.forget(MACHINES)
    assert module.lookup("machine", "web-1", required=False, project=PROJECT) is None
    assert module.lookup("machine", "db-1", project=PROJECT)["id"] == DB_1["id"]


# -- the option table -------------------------------------------------------------------------

TABLE = dict(
    project=dict(type="str"),
    name=dict(type="str", member="name"),
    kind=dict(type="str", member="type", convert=str.upper, create_only=True),
    credentials=dict(type="list", elements="str", member="cloudCredentialsIDs", lookup="cloud_credentials", unordered=True),
    subnet=dict(type="str", member="subnetId", lookup="subnet"),
    key=dict(type="str", no_log=True, member="privateKey"),
)


def test_the_table_makes_the_desired_state_of_the_options_given():
    module = Module({"/cloudCredentials": [{"id": CREDENTIALS_ID, "name": "aws-dr"}]},
                    params=dict(project="p", name="web", kind="dr", credentials=["aws-dr", "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"],
                                subnet="private-b", key=None), table=TABLE)
    assert module.desired(region=US_EAST) == {"name": "web", "type": "DR", "cloudCredentialsIDs": [CREDENTIALS_ID, "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e"],
                                              "subnetId": "subnet-0c2d"}
    assert module._members("unordered") == ("cloudCredentialsIDs",) and module._members("no_log") == ("privateKey",)


def test_a_create_only_member_that_would_change_fails():
    module = Module({}, params=dict(kind="backup"), table=TABLE)
    assert module.desired(current={"name": "web", "type": "BACKUP"}) == {"type": "BACKUP"}
    with pytest.raises(Failed, match="kind of 'web' is DR and cannot change to BACKUP"):
        module.desired(current={"name": "web", "type": "DR"})


def test_ensure_sends_only_what_differs_compares_unordered_lists_as_sets_and_keeps_secrets_out_of_the_diff():
    module = Module({}, table=TABLE)
    sent = []
    current = {"id": "c", "name": "web", "cloudCredentialsIDs": ["a", "b"], "privateKey": "old"}
    desired = {"name": "web", "cloudCredentialsIDs": ["b", "a"], "privateKey": "new"}
    after = module.ensure(current, desired, create=None, update=lambda changes: sent.append(changes) or dict(current, **changes))
    assert sent == [{"privateKey": "new"}] and after["privateKey"] == "new"
    assert module.changed and module.diff == {"before": {"name": "web", "cloudCredentialsIDs": ["a", "b"]},
                                              "after": {"name": "web", "cloudCredentialsIDs": ["a", "b"]}}


def test_ensure_takes_a_custom_comparison_and_view():
    module = Module({})
    current = {"id": "c", "steps": [3, 1]}
    plan = module.ensure(current, {"steps": [1, 3]}, create=None, update=None, compare=lambda current, desired: {},
                         shown=lambda plan: {"steps": sorted(plan["steps"])})
    assert plan is current and not module.changed


def test_check_mode_predicts_a_creation_without_writing():
    module = Module({}, check_mode=True, table=TABLE)
    created = module.ensure(None, {"name": "web", "privateKey": "secret"}, create=lambda body: pytest.fail("written in check mode"), update=None)
    assert created == {"name": "web", "privateKey": "secret"}
    assert module.changed and module.diff == {"before": {}, "after": {"name": "web"}}


# -- one way to change things -----------------------------------------------------------------

def test_a_change_writes_only_outside_check_mode_and_records_the_diff():
    for check_mode in (True, False):
        module = Module({}, check_mode=check_mode)
        answer = module.change(lambda: "written", before={"a": 1}, after={"a": 2})
        assert answer == (None if check_mode else "written")
        assert module.changed and module.diff == {"before": {"a": 1}, "after": {"a": 2}}


def test_a_write_that_changed_nothing_after_all_is_not_a_change():
    module = Module({})
    assert module.change(lambda: ("job", False), after={"a": 2}, wrote=lambda started: started[1]) == ("job", False)
    assert not module.changed and module.diff == {"before": {}, "after": {}}


def test_a_write_the_service_refused_changed_nothing():
    module = Module({})

    def refused():
        raise ServiceError("POST", "/projects", 400, "invalidInput", "no")
    with pytest.raises(ServiceError):
        module.change(refused, after={"a": 2})
    assert not module.changed


def test_no_module_tests_check_mode_or_sets_changed_or_the_diff_itself():
    """Modules change things through the base's change() and ensure() only (see the module docstring of _base)."""
    modules = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "plugins", "modules")
    offences = []
    for name in sorted(os.listdir(modules)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(modules, name)) as source:
            tree = ast.parse(source.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("check_mode", "diff", "changed", "record_diff"):
                offences.append("%s:%d uses %s" % (name, node.lineno, node.attr))
            if isinstance(node, ast.keyword) and node.arg in ("changed", "diff"):
                offences.append("%s:%d passes %s=" % (name, node.lineno, node.arg))
            if isinstance(node, ast.Dict) and any(isinstance(key, ast.Constant) and key.value in ("changed", "diff") for key in node.keys):
                offences.append("%s:%d returns changed or diff" % (name, node.lineno))
    assert len(os.listdir(modules)) > 20 and offences == []


# -- moments and points in time ---------------------------------------------------------------

def test_a_moment_is_an_rfc_3339_date_time_with_a_time_and_a_zone():
    module = Module({})
    assert module.moment("since", None) is None
    assert module.moment("since", "2026-11-22T08:00:00Z") == module.moment("since", "2026-11-22T09:00:00+01:00") == 1795334400.0
    with pytest.raises(Failed, match="since must be an RFC 3339 date-time such as 2026-11-20T03:00:00Z, not 'yesterday'. Nothing was changed."):
        module.moment("since", "yesterday")
    with pytest.raises(Failed, match="since '2026-11-22' is a date without a time"):
        module.moment("since", "2026-11-22")
    with pytest.raises(Failed, match="since '2026-11-22T08:00:00' has no Z or offset"):
        module.moment("since", "2026-11-22T08:00:00")


def test_a_point_in_time_is_latest_an_id_or_a_moment_not_later_than_the_services_now():
    # A read of the domain needs no module: a session will do.
    module = Session({}, client=PathClient({"/extendedAccountInfo": {"dateTime": {"dateTime": "2026-11-22T09:00:00.000000+00:00"}}}))
    assert point_in_time_option(module, "point_in_time", "latest") == (None, None)
    assert point_in_time_option(module, "point_in_time", WEB_1["id"]) == (WEB_1["id"], None)
    assert point_in_time_option(module, "point_in_time", "2026-11-22T08:00:00Z") == (None, 1795334400.0)
    assert point_in_time_option(module, "point_in_time", "before:2026-11-22T08:00:00Z") == (None, 1795334400.0)
    with pytest.raises(Refused, match="point_in_time must be latest, before:<date-time>"):
        point_in_time_option(module, "point_in_time", "soon")
    with pytest.raises(Refused, match="point_in_time takes latest, the ID of a point in time, or before:<date-time> here"):
        point_in_time_option(module, "point_in_time", "db-1=%s" % WEB_1["id"])
    with pytest.raises(Refused, match="point_in_time 2026-11-22T10:00:00Z is later than the service's now, 2026-11-22T09:00:00Z"):
        point_in_time_option(module, "point_in_time", "2026-11-22T10:00:00Z")


def test_points_at_a_moment_are_each_machines_newest_at_or_before_it():
    points = "/projects/%s/machines/%%s/pointsintime" % PROJECT_ID
    module = Module({points % WEB_1["id"]: [{"id": "p1", "dateTime": "2026-11-22T07:00:00Z"}, {"id": "p2", "dateTime": "2026-11-22T08:30:00Z"}],
                     points % DB_1["id"]: [{"id": "p3", "dateTime": "2026-11-22T09:00:00Z"}]})
    chosen, missing = points_at(module, PROJECT, [WEB_1, DB_1], module.moment("at", "2026-11-22T08:00:00Z"))
    assert chosen == {WEB_1["id"]: {"id": "p1", "dateTime": "2026-11-22T07:00:00Z"}} and missing == ["db-1"]


# -- reads the interface has no list for, read ahead -------------------------------------------


def test_reads_ahead_are_kept_and_not_read_again():
    replica = "/projects/%s/replicas/r1" % PROJECT_ID
    points = "/projects/%s/machines/%s/pointsintime" % (PROJECT_ID, WEB_1["id"])
    gone = "/projects/%s/replicas/gone" % PROJECT_ID
    module = Module({replica: {"id": "r1"}, points: [{"id": "p1", "dateTime": "2026-11-22T07:00:00Z"}]})
    module.read_ahead(ones=[replica, gone, replica], lists=[points])
    assert module.client.batches == [[replica, gone, points]]
    assert module.lookup("target_machine", "r1", project=PROJECT) == {"id": "r1"}
    assert [point["id"] for point in points_of(module, PROJECT, WEB_1)] == ["p1"]
    assert module.client.requests == []  # both came from the read ahead
    assert module.lookup("target_machine", "gone", project=PROJECT, required=False) is None  # read again, and judged there
    module.read_ahead(ones=[replica], lists=[points])
    assert len(module.client.batches) == 1
