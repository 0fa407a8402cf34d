# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Files and the controller's clock: where a runbook writes (``where_started``), a file written whole or not at all, a
file that only a new run may make, and each run's files beside the plain names of the newest (nothing of the record is
ever written over another run's)."""

import json
import os
import re
import tempfile
from datetime import datetime, timezone

from ansible.module_utils.common.text.converters import to_text

from ansible_collections.replication.recovery.plugins.module_utils._domain import parse_time


def _temporary(path, text):
    """``text`` in a new temporary file beside ``path`` (readable by all, as the files it becomes): its path."""
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix="." + os.path.basename(path) + ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, 0o644)
    except BaseException:
        os.unlink(temporary)
        raise
    return temporary


def write_atomically(path, text):
    """Write a file whole or not at all: a run stopped while it writes leaves the previous file."""
    temporary = _temporary(path, text)
    try:
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def write_json(path, value, **dumped):
    """A JSON document written whole or not at all (``dumped``: json.dumps's options)."""
    write_atomically(path, json.dumps(value, **dumped) + "\n")


def write_new(path, text):
    """Write a file whole that does not exist yet: False, writing nothing, when it does (another run's)."""
    temporary = _temporary(path, text)
    try:
        os.link(temporary, path)
        return True
    except FileExistsError:
        return False
    finally:
        os.unlink(temporary)


# The collection's own directory (ansible_collections/replication/recovery), which an install replaces whole.
COLLECTION = os.path.realpath(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
# What of it may hold a user's files: its tests, which ansible-test runs inside it.
COLLECTION_TESTS = os.path.join(COLLECTION, "tests")
# What of it a runbook may be given to read: its roles' own task files (a game day gives the DR test it runs its own hook).
COLLECTION_ROLES = os.path.join(COLLECTION, "roles")


class PathRefused(ValueError):
    """A path no runbook writes to or reads from: inside the installed collection."""


class Unreadable(PathRefused):
    """A file a run kept for the next that cannot be read (read_kept): ``why``."""

    def __init__(self, what, path, why):
        super(Unreadable, self).__init__("%s %s cannot be read (%s): move it aside to begin anew" % (what, path, why))
        self.path, self.why = path, why


def read_kept(path, what):
    """The JSON object a run kept at ``path`` for the next run (``what`` it is, in words), or None when there is none. One that
    cannot be read whole, or holds no JSON object, is refused by name: taken for none, the next run would begin anew over
    what the run that kept it left."""
    try:
        with open(path, encoding="utf-8") as handle:
            kept = json.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise Unreadable(what, path, getattr(error, "strerror", None) or str(error))
    if not isinstance(kept, dict):
        raise Unreadable(what, path, "it holds no JSON object")
    return kept


# What a run's first task writes in each directory the run will write, and removes: about what a run's reports of a few
# hundred machines take (JSON, JUnit XML, Markdown and page), so that a full disk is found before the run, not after it.
PROBE_BYTES = 1 << 20
# What a run's reports take a machine, the newest copies beside the dated ones included (measured: 4.2 KiB a machine and
# copy at 200 and at 1,000 machines), for the second look at its directories once the machines are known.
REPORT_BYTES_PER_MACHINE = 8 << 10


def report_bytes(machines):
    """About what the reports of a run of ``machines`` machines take: never less than what the run's first task wrote."""
    return max(PROBE_BYTES, machines * REPORT_BYTES_PER_MACHINE)


def unwritable(directory, size=PROBE_BYTES):
    """Why ``directory`` cannot take a run's files, or None: a file of ``size`` bytes is written there (in its nearest
    existing parent when it is not made yet, which the run makes) and removed. Permissions are not enough to go by: a
    directory made immutable, or a full disk, refuses root too."""
    where = os.path.abspath(directory)
    while not os.path.isdir(where):
        if os.path.exists(where):
            return "%s is not a directory" % where
        where = os.path.dirname(where)
    try:
        with tempfile.NamedTemporaryFile(dir=where, prefix=".replication-recovery-probe-") as probe:
            probe.write(b"\0" * size)
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as error:
        return "%s: %s" % (where, error.strerror or error)
    return None


def own_task_file(resolved):
    """Whether ``resolved`` is a task file of one of the collection's roles (roles/<role>/tasks/<file>.yml), which it reads."""
    parts = os.path.relpath(resolved, COLLECTION_ROLES).split(os.sep)
    return len(parts) == 3 and parts[0] != os.pardir and parts[1] == "tasks" and parts[2].endswith(".yml") and os.path.isfile(resolved)


def where_started(path, name="the path"):
    """``path`` as the user meant it: ``~`` expanded, and a relative path taken from the directory ``ansible-playbook`` was
    started in - the controller's working directory, which Ansible never changes (its modules run in the playbook's
    directory instead, so a role hands them absolute paths). None for no path. A path inside the installed collection
    (but its tests, and its roles' own task files) is refused, naming ``name``: the next install replaces it, and what was
    written there with it."""
    if path is None or (isinstance(path, str) and not path.strip()):
        return None
    resolved = os.path.realpath(os.path.join(os.getcwd(), os.path.expanduser(os.path.expandvars(str(path).strip()))))
    if (resolved == COLLECTION or resolved.startswith(COLLECTION + os.sep)) and not (
            resolved == COLLECTION_TESTS or resolved.startswith(COLLECTION_TESTS + os.sep) or own_task_file(resolved)):
        raise PathRefused("%s %s is inside the installed collection replication.recovery (%s), which the next install replaces with all "
                          "that was written there: give a path of your own" % (name, resolved if resolved == str(path) else "%r (%s)" % (
                              str(path), resolved), COLLECTION))
    return resolved


def controller_now():
    """This machine's clock as every report writes when it was generated (RFC 3339, UTC, whole seconds)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def report_path(directory, runbook, project, suffix=""):
    """Where a runbook writes a file of a project: ``<directory>/<runbook>_<project><suffix>``, the directory as given
    (``~`` expanded, made absolute; ``<runbook>_report`` if not given), the project's name made safe for a file name."""
    directory = where_started(directory or "%s_report" % runbook, "the report directory")
    return os.path.join(directory, "%s_%s%s" % (runbook, re.sub(r"[^A-Za-z0-9_.-]+", "_", project), suffix))


def stamp(began):
    """A run's start as a part of its files' names: 20261125T031200Z."""
    return datetime.fromtimestamp(parse_time(began), timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def run_of(path):
    """What the run whose JSON file ``path`` is says of itself (its ``run``: began, files, reached), or None."""
    try:
        with open(path, encoding="utf-8") as handle:
            run = json.load(handle)["run"]
        return dict(run, began=parse_time(run["began"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_run(directory, name, began, forms, newest=True, take_plain=True):
    """The files of one run, never over another run's: each of ``forms`` ((suffix, text) pairs, the JSON first, whose
    object gets a member ``run``: when the run began, its files' stem, whether it reached the service) as
    ``<name>.<its start><suffix>`` - with ``-2``, ``-3`` when another run began within the same second. The plain names
    ``<name><suffix>`` become atomic copies of them, unless a run that began later wrote them already - and, for a run
    that never reached the service (``newest`` false), unless a run that did wrote them: its error is no report over a
    good one. Without ``take_plain`` (a plan its run would refuse) the plain names are left as they are, whatever they hold.
    Answers the run's own paths and the plain ones, by suffix."""
    os.makedirs(directory, exist_ok=True)
    (first_suffix, document), others = forms[0], forms[1:]
    for attempt in range(1, 100):
        stem = "%s.%s%s" % (name, stamp(began), "" if attempt == 1 else "-%d" % attempt)
        document["run"] = dict(began=began, files=stem, reached=bool(newest))
        texts = [(first_suffix, json.dumps(document, indent=2) + "\n")] + [
            (suffix, text(document) if callable(text) else text) for suffix, text in others]
        if write_new(os.path.join(directory, stem + first_suffix), texts[0][1]):
            break
    else:
        raise OSError("a hundred runs of %s began within the second %s in %s" % (name, stamp(began), directory))
    own = dict((suffix, os.path.join(directory, stem + suffix)) for suffix, unused in texts)
    for suffix, text in texts[1:]:
        write_atomically(own[suffix], text)
    plain = dict((suffix, os.path.join(directory, name + suffix)) for suffix, unused in texts)
    there = run_of(plain[first_suffix])
    copy = take_plain and (there is None or (there["began"] <= parse_time(began) and (newest or not there.get("reached", True))))
    if copy:
        for suffix, text in texts[1:] + texts[:1]:  # the JSON last: it says which run the copies are of
            write_atomically(plain[suffix], text)
    return dict(own=own, plain=plain, newest=copy, directory=directory, stem=stem, name=name)


def write_also(files, suffix, text):
    """One more form of a run that write_run wrote (its page, which names the ledger entry entered after the other files):
    the run's own file, and the plain name's when the run's files are the newest. Answers the run's own path."""
    files["own"][suffix] = os.path.join(files["directory"], files["stem"] + suffix)
    files["plain"][suffix] = os.path.join(files["directory"], files["name"] + suffix)
    write_atomically(files["own"][suffix], text)
    if files["newest"]:
        write_atomically(files["plain"][suffix], text)
    return files["own"][suffix]


# The user's task files a run includes, by the ends of their options' names: its checks, its hooks.
TASK_FILES = "_tasks"


def task_files_refused(paths, loader, variable_manager=None):
    """What is wrong with the task files ``paths`` ({option: absolute path, or none}), each as "<option>: <path> <why>"."""
    problems = []
    for option, path in sorted(paths.items()):
        why = path and task_file_problem(loader, path, variable_manager)
        if why:
            problems.append("%s: %s %s" % (option, path, why))
    return problems


def task_file_problem(loader, path, variable_manager=None):
    """Why the file at ``path`` is no task file Ansible can include (None when it is one): missing, unreadable, not YAML, not a
    list of tasks, or a task Ansible cannot load (a module's name misspelt). Read and loaded as Ansible includes it in a
    runbook's play (vaulted, its YAML tags, its own imports from beside it, no collections of a play's). Ansible reads such a
    file only as it includes it, and one it cannot read or load there ends the playbook - after the run launched machines."""
    if not os.path.isfile(path):
        return "does not exist" if not os.path.exists(path) else "is no file"
    try:
        tasks = loader.load_from_file(path)
    except Exception as error:  # pylint: disable=broad-except
        return "cannot be read as YAML (%s)" % _first_line(error)
    if tasks is not None and not isinstance(tasks, list):
        return "is no list of tasks (a %s)" % ("mapping" if isinstance(tasks, dict) else type(tasks).__name__)
    if not tasks:
        return None
    basedir = loader.get_basedir()
    loader.set_basedir(os.path.dirname(path))  # as Ansible includes it: what it imports, from beside it
    try:
        load_tasks(tasks, variable_manager, loader)
    except Exception as error:  # pylint: disable=broad-except
        return "holds a task Ansible cannot load (%s)" % _first_line(error)
    finally:
        loader.set_basedir(basedir)
    return None


def load_tasks(tasks, variable_manager, loader):
    """Load ``tasks`` (a task file's data) as Ansible loads an included file's, in a play of no collections: raises what Ansible
    raises (a module it cannot resolve). Nothing where Ansible's plugin loader is not set up (code outside a playbook: there is
    nothing to resolve modules with). Imported here: Ansible's playbook objects cost a process that needs none (the event
    source) most of a second."""
    from ansible.playbook.helpers import load_list_of_tasks  # pylint: disable=import-outside-toplevel
    from ansible.playbook.play import Play  # pylint: disable=import-outside-toplevel
    from ansible.utils.collection_loader import AnsibleCollectionConfig  # pylint: disable=import-outside-toplevel
    if AnsibleCollectionConfig.collection_finder is None:
        return
    play = Play.load(dict(name="a runbook's", hosts="localhost", gather_facts=False), variable_manager=variable_manager, loader=loader)
    load_list_of_tasks(tasks, play=play, variable_manager=variable_manager, loader=loader)


def _first_line(error):
    """An error of Ansible's, by its first line: the reason (what follows shows the file's lines)."""
    return (to_text(getattr(error, "message", None) or error).strip().splitlines() or ["?"])[0]
