# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""An application's nodes: every fault refused at once, the levels, what a node's outcome means to those after it, a
node's verdict with optional machines, and the RTO forecast computed by hand from ledger entries."""

import pytest

from ansible_collections.replication.recovery.plugins.plugin_utils import _application as app
from ansible_collections.replication.recovery.plugins.plugin_utils._shape_application import page as application_page
from ansible_collections.replication.recovery.plugins.plugin_utils._shapes import forms_of

SHOP = dict(identity=dict(project="identity"), db=dict(project="db", after=["identity"]), cache=dict(project="cache", after="identity"),
            app=dict(project="app", after=["db", "cache"], approval=True))


def test_the_nodes_are_ordered_by_level():
    nodes = app.nodes_of(SHOP, "dr_test")
    assert app.levels_of(nodes) == [["identity"], ["cache", "db"], ["app"]]
    assert nodes["cache"]["after"] == ["identity"] and nodes["db"]["on_failure"] == "stop" and nodes["db"]["impact"] == "critical"


def test_every_fault_is_named_at_once_before_anything_is_written():
    given = dict(a=dict(project="p", after=["ghost"], impact="vital", retry=9, colour="red"), b=dict(project="p", on_failure="pause"),
                 c=dict(after=["c"]))
    with pytest.raises(app.ApplicationError) as raised:
        app.nodes_of(given, "dr_test")
    said = str(raised.value)
    for fault in ("node a: unknown settings colour", "after names ghost, which is not a node", "impact must be critical or optional",
                  "retry must be a whole number from 0 to 3", "on_failure must be stop or skip", "node c: project is required",
                  "node c is after itself", "nodes a and b are both project p"):
        assert fault in said, fault


@pytest.mark.parametrize("runbook, given, said", [
    ("dr_test", dict(dr_test_wavse="db-*"), "node db: vars dr_test_wavse is no option of the DR test (did you mean dr_test_waves?)"),
    ("failover", dict(failover_comitt="false", failover_pager="ops"),
     "node db: vars failover_comitt is no option of the Failover (did you mean failover_commit?); node db: vars failover_pager is no option "
     "of the Failover"),
])
def test_a_nodes_variable_that_is_no_option_of_its_runbook_is_refused_before_any_node_runs(runbook, given, said):
    """Passed to the node's run, it was refused there - once the levels before the node had run: a failover of the
    application's first level committed, then its second refused over a typo."""
    nodes = dict(db=dict(project="p", vars=given), web=dict(project="q", after=["db"]))
    with pytest.raises(app.ApplicationError) as raised:
        app.nodes_of(nodes, runbook)
    assert str(raised.value) == "The application cannot run, and nothing was written: %s." % said
    nodes["db"]["vars"] = {runbook + "_waves": "db-*", runbook + "_report_dir": "/srv/reports"}
    assert sorted(app.nodes_of(nodes, runbook)) == ["db", "web"]


def test_a_cycle_is_refused_and_shown():
    with pytest.raises(app.ApplicationError, match="in a cycle: a after c, c after b, b after a"):
        app.nodes_of(dict(a=dict(project="1", after=["c"]), b=dict(project="2", after=["a"]), c=dict(project="3", after=["b"])), "dr_test")


def test_one_project_in_two_accounts_is_two_nodes():
    nodes = app.nodes_of(dict(a=dict(project="p"), b=dict(project="p", connection=dict(url="https://other.example/api/latest"))), "failover")
    assert sorted(nodes) == ["a", "b"]


def test_more_levels_than_the_playbook_unrolls_are_refused():
    chain = dict(("n%d" % i, dict(project="p%d" % i, after=["n%d" % (i - 1)] if i else [])) for i in range(app.MAX_LEVELS + 1))
    with pytest.raises(app.ApplicationError, match="7 levels; the playbook runs at most 6"):
        app.nodes_of(chain, "dr_test")


def test_a_runbook_other_than_the_dr_test_or_the_failover_is_refused():
    with pytest.raises(app.ApplicationError, match="application_runbook must be one of dr_test, failover"):
        app.nodes_of(SHOP, "failback")


def test_a_failed_critical_node_stops_its_descendants_only():
    nodes = app.nodes_of(dict(SHOP, app=dict(project="app", after=["db", "cache"])), "dr_test")
    outcomes = dict(identity=dict(state=app.PASSED), db=dict(state=app.FAILED), cache=dict(state=app.PASSED))
    assert app.why_not(nodes, "app", outcomes) == dict(state=app.BLOCKED, reason="after db, which failed")
    assert app.why_not(nodes, "cache", outcomes) is None
    assert app.result_of(nodes, dict(outcomes, app=dict(state=app.BLOCKED))) == app.FAILED


def test_a_node_that_skips_its_failure_lets_the_next_run():
    nodes = app.nodes_of(dict(a=dict(project="1", on_failure="skip"), b=dict(project="2", after=["a"])), "dr_test")
    assert app.why_not(nodes, "b", dict(a=dict(state=app.FAILED))) is None
    optional = app.nodes_of(dict(a=dict(project="1", impact="optional"), b=dict(project="2", after=["a"])), "dr_test")
    assert optional["a"]["on_failure"] == "skip"
    assert app.result_of(optional, dict(a=dict(state=app.FAILED), b=dict(state=app.PASSED))) == app.PASSED


def test_a_node_waiting_for_approval_holds_what_follows_and_the_run_waits():
    nodes = app.nodes_of(dict(SHOP, after_app=dict(project="web", after=["app"])), "dr_test")
    outcomes = dict(identity=dict(state=app.PASSED), db=dict(state=app.PASSED), cache=dict(state=app.PASSED),
                    app=dict(state=app.WAITING))
    why = app.why_not(nodes, "after_app", outcomes)
    assert why["state"] == app.WAITING and why["waits_behind"] == "app"
    assert app.result_of(nodes, dict(outcomes, after_app=why)) == app.WAITING


def test_an_optional_machine_that_fails_does_not_fail_its_node():
    node = app.nodes_of(dict(db=dict(project="db", optional_machines=["db-3"])), "dr_test")["db"]
    report = dict(result="failed", checks=[dict(name="launch job, wave 1", status="failed")], measures=dict(rto_seconds=80),
                  machines=[dict(name="db-1", passed=True), dict(name="db-2", passed=True), dict(name="db-3", passed=False)])
    outcome = app.node_outcome(node, report)
    assert outcome["state"] == app.PASSED and outcome["optional_failed"] == ["db-3"] and outcome["critical_failed"] == []
    report["machines"][0]["passed"] = False
    outcome = app.node_outcome(node, report)
    assert outcome["state"] == app.FAILED and outcome["critical_failed"] == ["db-1"]
    report["machines"][0]["passed"] = True
    report["checks"].append(dict(name="cleanup", status="failed"))
    assert app.node_outcome(node, report)["state"] == app.FAILED


def test_a_nodes_points_reach_from_its_oldest_to_its_newest_every_launch_counted():
    node = app.nodes_of(dict(db=dict(project="db")), "dr_test")["db"]
    machines = [dict(name="db-1", passed=True, point_in_time=dict(id="p1", date_time="2026-11-27T02:50:00.000000+00:00")),
                dict(name="db-2", passed=True, point_in_time=dict(id="p2", date_time="2026-11-27T02:40:00Z")),
                dict(name="db-3", passed=False, point_in_time=None)]  # its launch failed
    outcome = app.node_outcome(node, dict(result="passed", machines=machines))
    assert outcome["points"] == dict(oldest="2026-11-27T02:40:00Z", newest="2026-11-27T02:50:00.000000+00:00")
    assert app.points_taken([machines[2]]) is None
    assert app.points_taken(machines[:1], dict(oldest="2026-11-27T01:00:00Z", newest="2026-11-27T01:10:00Z"), None) == dict(
        oldest="2026-11-27T01:00:00Z", newest="2026-11-27T02:50:00.000000+00:00")


def test_a_node_whose_points_were_thinned_out_before_it_ran_is_seen_furthest_behind_the_moment():
    moment = "2026-11-27T03:00:00Z"
    # identity ran at once: its newest points at or before the moment, minutes before it.
    identity = app.behind_the_moment(dict(oldest="2026-11-27T02:55:00Z", newest="2026-11-27T02:58:00Z"), moment)
    # app ran after a two-hour approval, when the service kept only hourly points of that time.
    late = app.behind_the_moment(dict(oldest="2026-11-27T02:00:00.000000+00:00", newest="2026-11-27T02:00:00Z"), moment)
    assert (identity, late) == (300, 3600)
    assert app.behind_the_moment(None, moment) is None and app.behind_the_moment(dict(oldest=moment, newest=moment), None) is None
    nodes = [dict(name="identity", behind_seconds=identity), dict(name="app", behind_seconds=late), dict(name="cache", behind_seconds=None)]
    assert app.furthest_behind(nodes)["name"] == "app"
    assert app.furthest_behind([dict(name="cache", behind_seconds=None)]) is None
    # A node that names its own point in time does not follow the moment: how far behind it its point is says nothing.
    settled = app.nodes_of(dict(identity=dict(project="identity"), app=dict(project="app", point_in_time="latest"),
                                db=dict(project="db", point_in_time="before:2026-11-26T00:00:00Z"),
                                edge=dict(project="edge", vars=dict(dr_test_point_in_time="edge-1=p-1"))), "dr_test")
    assert [name for name, node in sorted(settled.items()) if app.follows_the_moment(node, "dr_test")] == ["app", "identity"]
    assert not app.follows_the_moment(settled["identity"], "dr_test", given="before:2026-11-26T00:00:00Z")  # -e dr_test_point_in_time=...


def entry(project, rto, result="passed", runbook="dr_test"):
    return dict(runbook=runbook, result=result, report=dict(project=project, measures=dict(rto_seconds=rto)))


def test_the_forecast_is_the_sum_over_levels_of_the_slowest_nodes_percentiles():
    nodes = app.nodes_of(dict(SHOP, app=dict(project="app", after=["db", "cache"])), "dr_test")
    levels = app.levels_of(nodes)
    entries = [entry("identity", 100), entry("identity", 120), entry("identity", 140),
               entry("db", 300), entry("db", 320), entry("db", 400), entry("db", 999, result="failed"),
               entry("cache", 200), entry("cache", 500), entry("cache", 210),
               entry("app", 60), entry("app", 70), entry("app", 80), entry("app", 1, runbook="failback")]
    estimate = app.forecast(nodes, levels, entries)
    # By hand: identity p50 120, p90 136 (100, 120, 140: rank 1.8 -> 120 + 0.8 * 20); db p50 320, p90 384 (300, 320, 400);
    # cache p50 210, p90 442 (200, 210, 500: 210 + 0.8 * 290); app p50 70, p90 78. Level 2: p50 max(320, 210) = 320,
    # p90 max(384, 442) = 442. Sum: p50 120 + 320 + 70 = 510, p90 136 + 442 + 78 = 656.
    assert estimate["p50_seconds"] == 510 and estimate["p90_seconds"] == 656
    assert [level["slowest"] for level in estimate["levels"]] == ["identity", "cache", "app"]
    assert not estimate["at_least"]
    assert app.forecast_said(estimate) == "Forecast RTO: p50 510 s (8 min 30 s), p90 656 s (10 min 56 s)."


def test_a_node_never_measured_makes_the_forecast_at_least_and_is_named():
    nodes = app.nodes_of(dict(SHOP, app=dict(project="app", after=["db", "cache"])), "dr_test")
    estimate = app.forecast(nodes, app.levels_of(nodes), [entry("identity", 100), entry("db", 300)])
    assert estimate["at_least"] and estimate["unmeasured"] == ["app", "cache"] and estimate["p50_seconds"] == 400
    assert "at least" in app.forecast_said(estimate) and "never measured: app, cache" in app.forecast_said(estimate)
    nothing = app.forecast(nodes, app.levels_of(nodes), [])
    assert app.forecast_said(nothing).startswith("Forecast RTO: none")


def test_only_the_last_ten_passing_runs_count_and_the_ledger_is_read_no_further_back():
    """The entries come newest first (the ledger's newest_first): once every node has its ten, no older one is read - a
    ledger of years costs an application's start no more than its nodes' last runs."""
    nodes = app.nodes_of(dict(a=dict(project="a")), "failover")

    def newest_first():
        for unused in range(10):
            yield entry("a", 100, runbook="failover")
        raise AssertionError("read further back than the last ten passing runs")
    estimate = app.forecast(nodes, [["a"]], newest_first())
    assert estimate["p90_seconds"] == 100 and estimate["nodes"]["a"]["runs"] == 10
    older = app.forecast(nodes, [["a"]], [entry("a", 100, runbook="failover")] * 10 + [entry("a", 10000)])
    assert older["p90_seconds"] == 100 and older["nodes"]["a"]["runs"] == 10


def test_the_slowest_path_follows_the_slowest_nodes():
    nodes = app.nodes_of(dict(SHOP, app=dict(project="app", after=["db", "cache"])), "dr_test")
    assert app.critical_path(nodes, dict(identity=10, db=50, cache=80, app=5)) == ["identity", "cache", "app"]


def report_of_shop():
    nodes = []
    for level, name, state, after in ((1, "identity", "passed", []), (2, "cache", "passed", ["identity"]), (2, "db", "failed", ["identity"]),
                                      (3, "app", "blocked", ["db", "cache"])):
        nodes.append(dict(name=name, project=name, level=level, after=after, impact="critical", on_failure="stop", retry=0, state=state,
                          reason="after db, which failed" if state == "blocked" else "", waits_behind=None, approval=None,
                          needs_approval=False, machines=2, failed_machines=["db-1"] if name == "db" else [], optional_failed=[],
                          attempts=[], rto_seconds=60, began=None, ended=None, seconds=30 if state != "blocked" else None,
                          failures=["db-1: launch: failed"] if name == "db" else []))
    return dict(schema="replication.recovery.application/v1", name="shop", runbook="dr_test", result="failed", began="2026-11-27T00:00:00Z",
                generated="2026-11-27T00:10:00Z", controller_user="oncall", nodes=nodes, critical_path=["identity", "db"],
                levels=[dict(level=1, nodes=["identity"], seconds=30, forecast_p50_seconds=20, forecast_p90_seconds=25)],
                forecast=dict(p50_seconds=20, p90_seconds=25, at_least=True, unmeasured=["app"], nodes=dict(app={}, db={})), approvals={},
                failures=["db: db-1: launch: failed", "app: after db, which failed"])


def test_the_page_draws_the_graph_coloured_by_outcome_with_no_script():
    page = application_page(report_of_shop())
    assert "<svg" in page and "<script" not in page
    assert page.count("<rect") == 4 and page.count("marker-end") == 4
    assert page.count('class="slowest"') == 1  # identity -> db
    assert "#e53935" in page and "#43a047" in page and "#9e9e9e" in page  # failed, passed, blocked


def test_the_junit_fails_the_critical_nodes_that_failed_or_were_blocked():
    forms = forms_of(report_of_shop())
    junit = forms[".junit.xml"]
    assert 'tests="4" failures="2"' in junit and 'name="app"' in junit
    assert "| 2 | db | db | critical | failed | identity |" in forms[".md"]
    assert "| 3 | app | app | critical | blocked | db, cache | - | 60 | 2 | - | - | - | - |" in forms[".md"]
    assert "Furthest behind" not in forms[".md"]
    report = report_of_shop()
    report["nodes"][0].update(points=dict(oldest="2026-11-27T00:00:00Z", newest="2026-11-27T00:05:00Z"), behind_seconds=360)
    report["points_as_of"] = dict(identity="2026-11-27T00:06:00Z", db="2026-11-27T00:06:00Z")
    said = forms_of(report)[".md"]
    assert "Points in time as of 2026-11-27T00:06:00Z (the service's clock, when the run began)" in said
    assert "| 1 | identity | identity | critical | passed | - | 30 | 60 | 2 | - | 2026-11-27T00:05:00Z | 6 min 0 s | - |" in said
    assert "Furthest behind it: identity, whose oldest point is 6 min 0 s before its moment (2026-11-27T00:00:00Z)." in said
    page = application_page(report)
    assert "<p>Furthest behind it: identity, whose oldest point is 6 min 0 s before its moment" in page and "<td>6 min 0 s</td>" in page
    assert "Furthest behind" not in application_page(report_of_shop())
    assert "Slowest path: identity -> db." in forms[".md"]
    assert "Forecast RTO: at least p50 20 s (20 s), p90 25 s (25 s) (never measured: app)." in forms[".md"]


@pytest.mark.parametrize("words, said", [
    (["committed", "committed"], "committed"),
    (["committed", "nothing done"], "committed"),  # one node failed over now, the other stood
    (["rolled back", "rolled back"], "rolled back"),  # failover_commit=false: production never moved
    (["rolled back", "nothing done"], "rolled back"),
    (["nothing done"], "nothing done"),  # every node stood, failed over already
    ([None], "committed"),  # no node ran in this run: what an earlier run of the application ended, adopted
])
def test_a_passing_failover_of_the_application_says_what_its_nodes_did_to_production(words, said):
    """Its nodes rolled back (failover_commit=false), and the application said COMMITTED."""
    outcomes = dict(("node-%d" % number, dict(state=app.PASSED, outcome=word)) for number, word in enumerate(words))
    assert app.outcome_of(app.PASSED, "failover", outcomes) == said
    assert app.outcome_of(app.PASSED, "dr_test", dict(web=dict(state=app.PASSED, outcome="passed"))) == "passed"
