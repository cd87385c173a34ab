#!/usr/bin/env python3
"""How many inotify instances a process tree holds at most while it runs.

Linux counts inotify instances per user (fs.inotify.max_user_instances, 128 by default) and has
no counter to read, so this samples /proc: every INTERVAL seconds it counts the inotify
descriptors of ROOT_PID's descendants (the suite) and of all the user's processes (the suite and
everything else the user runs: the limit is shared). On SIGTERM or SIGINT, or when ROOT_PID
exits, it writes "<suite peak> <user peak> <limit>" to OUTPUT and exits. A sample can only miss
an instance, never invent one, so a peak over a budget is real.

Usage: scripts/test/inotify-peak.py ROOT_PID OUTPUT [INTERVAL]   (run by scripts/test/run-tests.sh)
"""
import os
import signal
import sys
import time


def processes():
    """(pid, parent pid) of each process of this user."""
    uid = os.getuid()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if os.stat("/proc/" + name).st_uid != uid:
                continue
            with open("/proc/%s/stat" % name) as stat:
                # The command name may hold spaces and parentheses: the fields follow the last ')'.
                fields = stat.read().rsplit(")", 1)[1].split()
            yield int(name), int(fields[1])
        except (OSError, IndexError, ValueError):
            continue  # it exited meanwhile


def inotify_descriptors(pid):
    count = 0
    try:
        for fd in os.listdir("/proc/%d/fd" % pid):
            try:
                if os.readlink("/proc/%d/fd/%s" % (pid, fd)) == "anon_inode:inotify":
                    count += 1
            except OSError:
                pass
    except OSError:
        pass
    return count


def sample(root):
    """(instances held by root's descendants, instances held by the user's processes)."""
    table = list(processes())
    children = {}
    for pid, parent in table:
        children.setdefault(parent, []).append(pid)
    tree, stack = set(), [root]
    while stack:
        pid = stack.pop()
        tree.add(pid)
        stack.extend(children.get(pid, []))
    suite = user = 0
    for pid, _ in table:
        count = inotify_descriptors(pid)
        user += count
        if pid in tree:
            suite += count
    return suite, user


def main():
    root, output = int(sys.argv[1]), sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(True))
    suite_peak = user_peak = 0
    while not stopping and os.path.exists("/proc/%d" % root):
        suite, user = sample(root)
        suite_peak, user_peak = max(suite_peak, suite), max(user_peak, user)
        time.sleep(interval)
    try:
        with open("/proc/sys/fs/inotify/max_user_instances") as limit_file:
            limit = limit_file.read().strip()
    except OSError:
        limit = "?"
    with open(output, "w") as out:
        out.write("%d %d %s\n" % (suite_peak, user_peak, limit))


if __name__ == "__main__":
    main()
