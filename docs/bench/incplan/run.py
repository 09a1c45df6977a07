#!/usr/bin/env python3
"""Runs incplan on levels of a collection through satsoko's DIMSPEC export of the pushes
encoding, checks each plan with satsoko's rules engine, and writes one CSV row per level.

    run.py INCPLAN LEVELS TIMEOUT OUT.csv [LEVEL-LIST] [-- INCPLAN-OPTIONS...]

INCPLAN is the planner's binary (built against an IPASIR solver), LEVELS an XSB
collection, TIMEOUT the wall-clock seconds per level (export included), LEVEL-LIST like
1-10,12 (default: every level); options after `--` go to incplan (`-s` for its
single-ended strategy). The satsoko binary is $SATSOKO (default: satsoko on the PATH).
incplan's answer is one line of values per step; the push variable true at each step
(named in the file's `c var` lines) gives the pushes, the walks between them are found
on the board, and the LURD plan is checked by `satsoko verify`: a plan it refuses is
reported as such, never counted. The makespan is the push count.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from levels import level_ids, write_rows  # noqa: E402  (docs/bench/levels.py)

STEP = {'L': (0, -1), 'U': (-1, 0), 'R': (0, 1), 'D': (1, 0)}
BOARD = set(' #@+$*.-_')


def boards(levels):
    """The boards of an XSB file, in order: runs of lines made of board characters."""
    found, rows = [], []
    for line in open(levels):
        line = line.rstrip('\n')
        if line.strip() and set(line) <= BOARD and '#' in line:
            rows.append(line)
        elif rows:
            found.append(rows)
            rows = []
    if rows:
        found.append(rows)
    return found


def lurd(rows, pushes):
    """The LURD plan of `pushes` ((row, column, direction) of each pushed box, 1-based)."""
    walls = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == '#'}
    boxes = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch in '$*'}
    player = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                  if ch in '@+')
    out = ''
    for (r, c, d) in pushes:
        dr, dc = STEP[d]
        box, behind = (r - 1, c - 1), (r - 1 - dr, c - 1 - dc)
        back = {player: ''}
        queue = collections.deque([player])
        while queue and behind not in back:
            cell = queue.popleft()
            for letter, (sr, sc) in STEP.items():
                nxt = (cell[0] + sr, cell[1] + sc)
                if nxt not in back and nxt not in walls and nxt not in boxes:
                    back[nxt] = back[cell] + letter.lower()
                    queue.append(nxt)
        out += back.get(behind, '?') + d
        boxes.remove(box)
        boxes.add((box[0] + dr, box[1] + dc))
        player = box
    return out


def main():
    args = sys.argv[1:]
    extra = args[args.index('--') + 1:] if '--' in args else []
    args = args[:args.index('--')] if '--' in args else args
    planner, levels, timeout, out = args[0], args[1], float(args[2]), args[3]
    satsoko = os.environ.get('SATSOKO', 'satsoko')
    with tempfile.TemporaryDirectory(prefix='incplan-') as work:
        rows = run_levels((planner, extra), levels, timeout, satsoko, work,
                          args[4] if len(args) > 4 else None)
    write_rows(out, rows)


def run_levels(planner, levels, timeout, satsoko, work, wanted):
    """One row per level: incplan's answer, its time and whether the rules accept it."""
    (binary, extra), all_boards = planner, boards(levels)
    rows = []
    for n in level_ids(satsoko, levels, wanted):
        spec = os.path.join(work, f'p{n}.dimspec')
        start = time.time()
        export = subprocess.run([satsoko, 'encode', levels, '--level', str(n), '--encoding',
                                 'pushes', '--dimspec', '-o', spec], capture_output=True)
        row = {'level': n, 'status': 'timeout', 'seconds': '', 'pushes': '', 'moves': '',
               'verified': '', 'variables_per_step': ''}
        if export.returncode != 0:
            row.update(status='refused', seconds=round(time.time() - start, 3))
            rows.append(row)
            print(n, row['status'], flush=True)
            continue
        names = {}
        for line in open(spec):
            m = re.match(r'c var (\d+) push r(\d+)c(\d+) ([LURD])', line)
            if m:
                names[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4))
        left = max(timeout - (time.time() - start), 0.001)
        try:
            run = subprocess.run([binary, *extra, spec], capture_output=True, text=True,
                                 timeout=left)
            answer = run.stdout
        except subprocess.TimeoutExpired:
            answer = None
        row['seconds'] = round(time.time() - start, 3)
        lines = answer.splitlines() if answer else []
        head = next((i for i, l in enumerate(lines) if l.startswith('solution ')), None)
        if head is not None:
            v, states = map(int, lines[head].split()[1:3])
            values = [set(map(int, l.split())) for l in lines[head + 1:head + 1 + states]]
            pushes = [next(names[i] for i in names if i in step) for step in values[:-1]]
            solution = lurd(all_boards[n - 1], pushes)
            check = subprocess.run([satsoko, 'verify', levels, '--level', str(n), '--solution',
                                    solution], capture_output=True)
            row.update(status='solved', pushes=len(pushes), moves=len(solution),
                       verified='yes' if check.returncode == 0 else 'no',
                       variables_per_step=v)
        elif answer is not None:
            row['status'] = 'error'
        rows.append(row)
        print(n, row['status'], row['seconds'], row['pushes'], row['verified'], flush=True)
    return rows


if __name__ == '__main__':
    main()
