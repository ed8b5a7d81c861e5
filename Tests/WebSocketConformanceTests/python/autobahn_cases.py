"""Expands Autobahn|Testsuite case patterns (as a fuzzingclient spec lists them) into case ids
with the suite's own resolver, and names patterns that match nothing. Run with the wstest
virtualenv's Python 2.7. AutobahnTests checks this before the run, because wstest given no
valid case never finishes, and afterwards, to see that the report holds every case.

Usage: autobahn_cases.py PATTERN...   Prints {"cases": [...], "unmatched": [...]} as JSON.
"""

import json
import sys

from autobahntestsuite.case import Cases, CaseCategories, CaseSubCategories, CaseSetname, CaseBasename
from autobahntestsuite.caseset import CaseSet


def main(patterns):
    case_set = CaseSet(CaseSetname, CaseBasename, Cases, CaseCategories, CaseSubCategories)
    known = set(case_set.CasesIndices.keys())
    cases = [case for case in case_set.parseSpecCases({"cases": patterns}) if case in known]
    unmatched = [pattern for pattern in patterns
                 if not [case for case in case_set.resolveCasePatternList([pattern]) if case in known]]
    print(json.dumps({"cases": cases, "unmatched": unmatched}))


if __name__ == "__main__":
    main(sys.argv[1:])
