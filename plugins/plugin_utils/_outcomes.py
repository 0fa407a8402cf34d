# -*- coding: utf-8 -*-
# Copyright: Contributors to the replication.recovery collection
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What a run came to, in one word from one table, beside its report's ``result``: the output's first line, the
Markdown's title, the page's colour, ``set_stats`` and the ledger all say it. Each word has the return code the
playbook ends with and the colour the page shows it in.

``result`` says whether the run passed its checks; the outcome says what happened to the service - a passing failover
that kept its machines *committed* production to them, one that removed them again *rolled back*, a run that found
everything done already did *nothing*, and a run stopped before its first write was *refused*."""

from collections import namedtuple

# The colour is a page's banner behind white text (the browser test finds passed and failed in screenshots).
Outcome = namedtuple("Outcome", "word rc colour meaning")

OUTCOMES = (
    Outcome("passed", 0, "#1b5e20", "it did all it was asked, and every check passed"),
    Outcome("committed", 0, "#1b5e20", "production runs on what it launched (a failover that kept its machines, a failback) or was written"),
    Outcome("rolled back", 0, "#0d47a1", "it launched and checked machines, then removed them again: production is where it was"),
    Outcome("adopted", 0, "#01579b", "it launched nothing itself: it took over what an earlier run of it launched, and finished it"),
    Outcome("nothing done", 0, "#455a64", "there was nothing to do: nothing was launched or changed"),
    Outcome("data loss accepted", 0, "#7a4f01", "it passed, launching from data that had not caught up, as the operator accepted"),
    Outcome("waiting for approval", 0, "#7a4f01", "it went as far as it could: a node waits for an approval, which the next run takes"),
    Outcome("planned", 0, "#455a64", "under --check: what a run would do; nothing was written to the service"),
    Outcome("failed", 2, "#b71c1c", "it went through, and a check failed"),
    Outcome("stopped", 2, "#bf360c", "it stopped part-way, after it had launched or changed something"),
    Outcome("cancelled", 2, "#455a64", "it was cancelled before it wrote anything"),
    Outcome("refused", 2, "#b71c1c", "it refused before its first write: nothing was launched or changed"),
)
BY_WORD = dict((outcome.word, outcome) for outcome in OUTCOMES)
WORDS = tuple(outcome.word for outcome in OUTCOMES)

PASSED, COMMITTED, ROLLED_BACK, ADOPTED, NOTHING_DONE, DATA_LOSS_ACCEPTED, WAITING, PLANNED, FAILED, STOPPED, CANCELLED, REFUSED = WORDS


def outcome(word):
    """The outcome of ``word``; a KeyError names a word outside the table."""
    try:
        return BY_WORD[word]
    except KeyError:
        raise KeyError("%r is no outcome word (the words are %s)" % (word, ", ".join(WORDS)))


def said(word):
    """The word as the first line of a run's output says it: COMMITTED, ROLLED BACK."""
    return outcome(word).word.upper()


def of_report(report):
    """A report's outcome word: its ``outcome`` - or, for a report written before runs kept one, passed or failed by its result."""
    word = report.get("outcome")
    if word in BY_WORD:
        return word
    return PASSED if report.get("result") == PASSED else WAITING if report.get("result") == WAITING else FAILED
