#!/usr/bin/env python3
"""Runs Madagascar on levels of a collection through satsoko's PDDL export, checks
each plan with satsoko's rules engine, and writes one CSV row per level.

    run.py MADAGASCAR LEVELS TIMEOUT OUT.csv [LEVEL-LIST]

MADAGASCAR is the planner's binary (MpC, Mp or M), LEVELS an XSB collection, TIMEOUT
the wall-clock seconds per level, LEVEL-LIST like 1-10,12 (default: every level).
The satsoko binary is $SATSOKO (default: satsoko on the PATH). Madagascar's plan
(moves and pushes of the IPC Sokoban domain) is turned into LURD and checked by
`satsoko verify`; a plan it refuses is reported as such, never counted.
"""
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from levels import level_ids, write_rows  # noqa: E402  (docs/bench/levels.py)

DIRECTIONS = {'dir-left': 'l', 'dir-up': 'u', 'dir-right': 'r', 'dir-down': 'd'}


def lurd(plan_file):
    """The LURD string of a Madagascar plan: moves lower case, pushes upper case."""
    out = ''
    with open(plan_file) as plan:
        for line in plan:
            action = re.search(r'(move|push-to-goal|push-to-nongoal)\(([^)]*)\)', line)
            if action:
                d = DIRECTIONS[action.group(2).split(',')[-1].strip()]
                out += d if action.group(1) == 'move' else d.upper()
    return out


def main():
    planner, levels, timeout, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    satsoko = os.environ.get('SATSOKO', 'satsoko')
    with tempfile.TemporaryDirectory(prefix='madagascar-') as work:
        rows = run_levels(planner, levels, timeout, satsoko, work)
    write_rows(out, rows)


def run_levels(planner, levels, timeout, satsoko, work):
    """One row per level: Madagascar's answer, its time and whether the rules accept it."""
    domain = os.path.join(work, 'domain.pddl')
    rows = []
    for n in level_ids(satsoko, levels, sys.argv[5] if len(sys.argv) > 5 else None):
        problem, plan = os.path.join(work, f'p{n}.pddl'), os.path.join(work, f'plan{n}.txt')
        subprocess.run([satsoko, 'encode', levels, '--level', str(n), '--pddl', '-o', problem,
                        '--pddl-domain', domain], check=True, capture_output=True)
        start = time.time()
        try:
            run = subprocess.run([planner, domain, problem, '-o', plan], capture_output=True,
                                 text=True, timeout=timeout)
            log, finished = run.stdout, True
        except subprocess.TimeoutExpired as stopped:
            log = stopped.stdout.decode(errors='replace') if stopped.stdout else ''
            finished = False
        row = {'level': n, 'status': 'timeout', 'seconds': round(time.time() - start, 3),
               'steps': '', 'moves': '', 'pushes': '', 'verified': '',
               'last_horizon': (re.findall(r'Horizon (\d+):', log) or [''])[-1]}
        if os.path.exists(plan) and os.path.getsize(plan) > 0:
            solution = lurd(plan)
            steps = re.search(r'PLAN FOUND: (\d+) steps', log)
            check = subprocess.run([satsoko, 'verify', levels, '--level', str(n), '--solution',
                                    solution], capture_output=True)
            row.update(status='solved', steps=steps.group(1) if steps else '',
                       moves=len(solution), pushes=sum(c.isupper() for c in solution),
                       verified='yes' if check.returncode == 0 else 'no')
        elif finished:
            row['status'] = 'error'
        rows.append(row)
        print(n, row['status'], row['seconds'], row['pushes'], row['verified'], flush=True)
    return rows


if __name__ == '__main__':
    main()
