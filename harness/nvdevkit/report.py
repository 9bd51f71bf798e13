"""What a boot showed: facts read from the guest's report, for people
(the `run` summary) and for tests."""
import re

DMESG_TS = re.compile(r'^\[\s*\d+\.\d+\]\s*')


def lines(boot):
    return [DMESG_TS.sub('', l) for l in boot.dmesg]


def driver_lines(boot, driver='nouveau'):
    return [l for l in lines(boot) if l.startswith(driver + ' ')]


# what nvdrm says when it has identified the card
NVDRM_PROBE = re.compile(r'^nvdrm \S+: (\S+) \(BOOT_0 0x([0-9a-f]{8})\), (\d+) MiB (\S+),')
NVDRM_VBIOS = re.compile(r'^nvdrm \S+: VBIOS: \d+ bytes from (.+?), checksum ok')


def chipset(boot):
    """The chip the driver names, and BOOT_0 (nouveau's or nvdrm's line)."""
    for l in lines(boot):
        m = re.search(r': NVIDIA (\S+) \(([0-9a-f]{8})\)', l) or NVDRM_PROBE.search(l)
        if m:
            return m.group(1), int(m.group(2), 16)
    return None


def vram(boot):
    """MiB and type: nouveau's names (SDRAM, DDR1, ...) or nvdrm's (SDR, DDR)."""
    for l in lines(boot):
        m = re.search(r' fb: (\d+) MiB (\S+)', l)
        if m:
            return int(m.group(1)), m.group(2)
        m = NVDRM_PROBE.search(l)
        if m:
            return int(m.group(3)), m.group(4)
    return None


def vbios(boot):
    """Where the driver took the VBIOS from; nouveau's score for it and its
    version (nvdrm gives neither, and refuses an image whose checksum fails)."""
    scores, source, version, current, nvdrm_ok = {}, None, None, None, False
    for l in lines(boot):
        m = re.search(r' bios: trying (\S+?)\.\.\.', l)
        if m:
            current = m.group(1)
        m = re.search(r' bios: scored (\d+)', l)
        if m and current:
            scores[current] = int(m.group(1))
        m = re.search(r' bios: using image from (\S+)', l)
        if m:
            source = m.group(1)
        m = re.search(r' bios: version (\S+)', l)
        if m:
            version = m.group(1)
        m = NVDRM_VBIOS.search(l)
        if m:
            source, nvdrm_ok = m.group(1), True  # nvdrm refuses a bad checksum
    checksum_failed = any('checksum failed' in l for l in lines(boot))
    return {'source': source, 'score': scores.get(source), 'version': version,
            'checksum_ok': nvdrm_ok or (source is not None and scores.get(source) == 4
                                        and not checksum_failed)}


def dcb(boot):
    out = []
    for l in lines(boot):
        m = re.search(r'DCB outp (\d+): ([0-9a-f]{8}) ([0-9a-f]{8})', l)
        if m:
            out.append((int(m.group(1)), int(m.group(2), 16), int(m.group(3), 16)))
    return out


def connectors(boot):
    if not boot.report:
        return []
    return [(c['name'], c['status'], c['modes']) for c in boot.report['drm']]


def bound_driver(boot, vendor='0x10de'):
    """The driver of the vendor's display device (an nForce IGP's host
    bridge functions are the vendor's too)."""
    if not boot.report:
        return None
    for d in boot.report['pci']:
        if d['vendor'] == vendor and d.get('class', '0x03').startswith('0x03'):
            return d['driver']
    return None


def accel(boot):
    """What nouveau moves buffers with ("M2MF", "CPU"), or why not."""
    for l in lines(boot):
        m = re.search(r'MM: using (\S+) for buffer copies', l)
        if m:
            return m.group(1)
    if any(l.startswith('Kernel command line') and 'nouveau.noaccel=1' in l
           for l in lines(boot)):
        return 'off (nouveau.noaccel=1)'
    return 'none: the driver uses no copy engine'


def problems(boot):
    """Kernel warnings, oopses and driver errors."""
    kernel = re.compile(r'WARNING:|BUG:|Oops:|Call Trace|general protection')
    driver = re.compile(r'\berror\b|failed|unable to|timeout|timed out|lockup', re.I)
    return [l for l in lines(boot)
            if not l.startswith(('Command line', 'Kernel command line'))
            and (kernel.search(l) or driver.search(l))]


def summary(boot):
    out = [f'board      {boot.board}   driver {boot.driver}   '
           f'(QEMU exit {boot.rc}, {boot.elapsed:.1f} s)']
    err = [l for l in boot.qemu_stderr.splitlines() if l.strip()]
    if not boot.report and boot.rc not in (0, 'timeout') and err:
        out.append('QEMU refused to run the board:')
        out += ['           ' + l for l in err[-10:]]
    elif not boot.report and boot.rc == 'timeout':
        out.append('no report from the guest before the time limit: see the serial log')
    elif not boot.report:
        out.append('no report from the guest: see the serial log')
    else:
        c = chipset(boot)
        out.append('chipset    ' + (f'{c[0]} (BOOT_0 0x{c[1]:08x})' if c else 'not detected'))
        v = vram(boot)
        out.append('VRAM       ' + (f'{v[0]} MiB {v[1]}' if v else 'unknown'))
        b = vbios(boot)
        if b['source']:
            score = f' (score {b["score"]})' if b['score'] is not None else ''
            out.append(f'VBIOS      from {b["source"]}, '
                       f'{"valid checksum" if b["checksum_ok"] else "checksum NOT valid"}'
                       f'{score}, version {b["version"] or "not reported"}')
        else:
            out.append('VBIOS      not found by the driver')
        for idx, conn, conf in dcb(boot):
            out.append(f'DCB {idx:02d}     {conn:08x} {conf:08x}')
        conns = connectors(boot)
        if conns:
            for name, status, modes in conns:
                out.append(f'connector  {name}: {status}, {len(modes)} modes')
        else:
            out.append('connector  none registered')
        out.append(f'bound      {bound_driver(boot) or "no driver"}')
        out.append(f'accel      {accel(boot)}')
        for l in boot.report.get('nvaccel') or []:
            out.append('nvaccel    ' + l)
        p = problems(boot)
        out.append(f'problems   {len(p)} line(s) of warnings/errors in dmesg')
        for l in p[:10]:
            out.append('           ' + l)
        for l in err:
            m = re.search(r'has no nvdev board record: defaulted (.*?) \(', l)
            if m:
                out.append(f'defaulted  {m.group(1)} (the VBIOS has no nvdev board '
                           'record; --set vram_mb=, strap=, ram_type= to change)')
        for l in [l for l in err if 'has no nvdev board record' not in l][:10]:
            out.append('qemu said  ' + l)
    out.append(f'trace      {boot.trace_path}')
    out.append(f'serial     {boot.serial_path}')
    out.append(f'qemu log   {boot.qemu_log_path}')
    return '\n'.join(out)
