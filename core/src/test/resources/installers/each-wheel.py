"""Installs each wheel of a listing with pip or unpacks it with wheel, one interpreter for all of them.

Usage: each-wheel.py pip|unpack LISTING, where each line of LISTING is WHEEL<TAB>TARGET<TAB>LOG. For pip it runs
pip's own command-line entry point (what `python -m pip` runs) with `install --target TARGET`; for unpack the
function `python -m wheel unpack -d TARGET` calls. Each wheel's output goes to LOG, its exit status to LOG.status.
One interpreter saves its start-up per wheel, which dominates when hundreds of wheels are installed.
"""
import contextlib
import sys
import traceback

tool, listing = sys.argv[1], sys.argv[2]
with open(listing, encoding="utf-8") as lines:
    for line in lines:
        whl, target, log = line.rstrip("\n").split("\t")
        with open(log, "w", encoding="utf-8") as out, contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(out):
            try:
                if tool == "pip":
                    from pip._internal.cli.main import main
                    status = main(["install", "--no-index", "--no-deps", "--no-compile",
                                   "--disable-pip-version-check", "--no-warn-script-location",
                                   "--target", target, whl])
                else:
                    from wheel.cli.unpack import unpack
                    unpack(whl, target)
                    status = 0
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else 1
            except BaseException:  # what the command line would print before exiting 1
                traceback.print_exc()
                status = 1
        with open(log + ".status", "w", encoding="utf-8") as out:
            out.write(str(status))
