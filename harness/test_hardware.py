"""The hardware scenarios (vmtest/scenarios/*.py): the real binary on real kernel drivers in
QEMU, one test per scenario, all sharing one boot in file order (a scenario with fresh_vm=True
boots its own). vmtest/README.md says what each drives and how to add one.

    harness/run --binary .build/release/photobooth -m vm harness/test_hardware.py
    harness/run --binary .build/release/photobooth harness/test_hardware.py -k phone_keypad

Without a built binary (and no --binary) only the kit's self-test, `devices`, runs; the others
are skipped. Each scenario's screendumps and notes are in <out>/test_hardware-FILE.NAME/, the
guest's console, control-shell transcript and /share (the booth's logs) in
<out>/test_hardware-vm/vm-N/.
"""
from __future__ import annotations

import pytest

from harness.vm_fixtures import (  # noqa: F401  (fixtures)
    BrokenFile, Watchdog, load_scenarios, scenario_id, vm_binary, vm_env, vm_initramfs, vm_pool)

SCENARIOS = load_scenarios()


@pytest.mark.vm
@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario_id(s) for s in SCENARIOS])
def test_hardware(scenario, vm_pool, out):
    if isinstance(scenario, BrokenFile):
        pytest.fail(f"vmtest/scenarios/{scenario.name}.py cannot be loaded:\n{scenario.error}", pytrace=False)
    if scenario.needs_binary and not vm_pool.binary:
        pytest.skip("needs the photobooth binary: build it or pass --binary")
    guest = vm_pool.fresh() if scenario.fresh_vm else vm_pool.shared()
    watchdog = Watchdog(guest, scenario.timeout, f"scenario {scenario.name}")
    try:
        with watchdog:
            scenario.func(guest, out)
    except Exception as error:
        if watchdog.fired.is_set():
            raise AssertionError(f"timed out after {scenario.timeout} s ({error.__class__.__name__}: {error})") from error
        raise
    finally:
        if scenario.fresh_vm:
            vm_pool.stop(guest)
        else:
            vm_pool.after_test()
