"""What the outside-planner runners (madagascar/run.py, incplan/run.py) share: the
levels to run and the CSV they write."""
import csv
import subprocess


def level_ids(satsoko, levels, wanted):
    """The level numbers of LEVEL-LIST `wanted` (like 1-10,12), or every level of the
    collection `levels` when it is None."""
    if wanted:
        ids = []
        for part in wanted.split(','):
            first, _, last = part.partition('-')
            ids += range(int(first), int(last or first) + 1)
        return ids
    # The collection's size: one JSON line per level from a solve that stops at once.
    run = subprocess.run([satsoko, 'solve', levels, '--engine', 'astar', '--timeout', '0.001',
                          '--json'], capture_output=True, text=True)
    return range(1, sum(line.startswith('{') for line in run.stdout.splitlines()) + 1)


def write_rows(out, rows):
    """Writes `rows` (dicts with the same keys) to the CSV file `out`."""
    with open(out, 'w', newline='') as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
