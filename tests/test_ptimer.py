"""PTIMER over qtest: a monotonic counter that ticks at the programmed
NVCLK * DENOMINATOR / NUMERATOR rate, with a working alarm."""
import pytest

NUMERATOR, DENOMINATOR = 0x9200, 0x9210
TIME_0, TIME_1, ALARM_0 = 0x9400, 0x9410, 0x9420
INTR_0, INTR_EN_0 = 0x9100, 0x9140
PMC_INTR_0, PMC_INTR_EN_0 = 0x100, 0x140
NVPLL = 0x680500
STRAP = 0x101000


def read_time(d):
    while True:
        hi = d.rd32(TIME_1)
        lo = d.rd32(TIME_0)
        if d.rd32(TIME_1) == hi:
            return hi << 32 | lo


def nvclk_khz(d):
    coef = d.rd32(NVPLL)
    m, n, p = coef & 0xff, (coef >> 8) & 0xff, (coef >> 16) & 7
    crystal = 14318 if d.rd32(STRAP) & 0x40 else 13500
    return crystal * n // m >> p


def test_monotonic(device):
    with device() as d:
        last = read_time(d)
        for step in (1, 10, 1000, 100000, 10000000):
            d.clock_step(step)
            now = read_time(d)
            assert now >= last, f'TIME went backwards: {last} -> {now}'
            last = now
        assert last > 0


@pytest.mark.parametrize('num,den', [(217, 39), (1, 1), (200, 7)])
def test_rate_follows_ratio(device, num, den):
    with device() as d:
        d.wr32(NUMERATOR, num)
        d.wr32(DENOMINATOR, den)
        assert (d.rd32(NUMERATOR), d.rd32(DENOMINATOR)) == (num, den)
        f = nvclk_khz(d)
        t0 = read_time(d)
        d.clock_step(10_000_000)            # 10 ms of virtual time
        t1 = read_time(d)
        want = 10_000_000 * f * 32 * den // (num * 1_000_000)
        assert abs((t1 - t0) - want) <= 64, (
            f'TIME advanced {t1 - t0} in 10 ms at NVCLK {f} kHz, ratio '
            f'{den}/{num}: expected {want}')


def test_vbios_ratio_counts_nanoseconds(device, board_info):
    """The board's init script ratio makes TIME a ns counter (within 0.1 %)."""
    with device() as d:
        d.wr32(NUMERATOR, 217)
        d.wr32(DENOMINATOR, 39)
        t0 = read_time(d)
        d.clock_step(50_000_000)
        ns = read_time(d) - t0
        assert abs(ns - 50_000_000) / 50_000_000 < 0.001, f'{ns} ns in 50 ms'


def test_time_write_and_carry(device):
    with device() as d:
        d.wr32(NUMERATOR, 1)
        d.wr32(DENOMINATOR, 1)
        d.wr32(TIME_1, 5)
        d.wr32(TIME_0, 0xffffff00)
        assert d.rd32(TIME_0) & 0x1f == 0, 'TIME_0 counts in units of 32'
        d.clock_step(1000)
        assert d.rd32(TIME_1) == 6, 'TIME_0 overflow did not carry into TIME_1'


def test_alarm_interrupt(device):
    with device() as d:
        d.wr32(NUMERATOR, 217)
        d.wr32(DENOMINATOR, 39)
        d.wr32(INTR_EN_0, 1)
        d.wr32(PMC_INTR_EN_0, 1)
        d.wr32(ALARM_0, (read_time(d) + 1_000_000) & 0xffffffff)
        d.clock_step(900_000)
        assert d.rd32(INTR_0) == 0, 'alarm fired early'
        assert not d.rd32(PMC_INTR_0) & (1 << 20)
        d.clock_step(200_000)
        assert d.rd32(INTR_0) == 1, 'alarm did not fire'
        assert d.rd32(PMC_INTR_0) & (1 << 20), 'PMC does not show PTIMER pending'
        d.wr32(INTR_0, 1)
        assert d.rd32(INTR_0) == 0 and not d.rd32(PMC_INTR_0) & (1 << 20)


def test_interrupt_edges_in_the_trace(device, tmp_path):
    from nvdevkit import trace
    with device(trace=True) as d:
        d.wr32(NUMERATOR, 217)
        d.wr32(DENOMINATOR, 39)
        d.wr32(INTR_EN_0, 1)
        d.wr32(PMC_INTR_EN_0, 1)
        d.wr32(ALARM_0, (read_time(d) + 100_000) & 0xffffffff)
        d.clock_step(200_000)
        d.wr32(INTR_0, 1)
    _, records = trace.read(str(tmp_path / 'trace.txt'))
    edges = [(r.addr, r.value) for r in records if r.space == 'irq']
    assert edges[:2] == [(1, 1 << 20), (0, 0)], edges


def test_an_alarm_nobody_takes_fires_once(device, tmp_path):
    """TIME_0 passes ALARM_0 once every 2^32 ticks.  The interrupt latches:
    while it is pending, later passes are not new events (the device arms
    no host timer for them); once acknowledged, the next pass raises it
    again."""
    log = tmp_path / 'alarm.log'
    with device(args=['-trace', 'nvdev_ptimer_alarm', '-D', str(log)]) as d:
        d.wr32(NUMERATOR, 1)
        d.wr32(DENOMINATOR, 1)              # the fastest rate: NVCLK * 32
        d.wr32(ALARM_0, (read_time(d) + 1_000_000) & 0xffffffe0)
        t0 = read_time(d)
        d.clock_step(10_000_000_000)        # 10 s with nobody listening
        passes = (read_time(d) - t0) >> 32
        assert passes >= 3, f'only {passes} passes of ALARM_0 in 10 s'
        assert d.rd32(INTR_0) == 1
        d.wr32(INTR_0, 1)
        d.clock_step(10_000_000_000)
        assert d.rd32(INTR_0) == 1, 'no alarm after the acknowledgement'
    with open(log) as f:
        fired = [l for l in f if 'nvdev_ptimer_alarm' in l]
    assert len(fired) == 2, f'{len(fired)} alarm events for 2 taken, {passes} passes'
