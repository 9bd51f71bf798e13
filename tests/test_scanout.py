"""The picture: what nouveau scans out is what QEMU's screendump shows.
fbcon's text on the console, and modetest's SMPTE bars with their exact
colours at the bars' centres."""
import os

from nvdevkit import png

BOARD = 'nv11-ch7006'
NOACCEL = 'nouveau.noaccel=1'
MODETEST = 'nvdev.modetest=-M,nouveau,-s,VGA-1:1024x768'

# SMPTE bars as libdrm's modetest draws them (top two thirds), left to right
BARS = [(192, 192, 192), (192, 192, 0), (0, 192, 192), (0, 192, 0),
        (192, 0, 192), (192, 0, 0), (0, 0, 192)]


def shot(b, name):
    path = os.path.join(b.outdir, name + '.png')
    assert os.path.exists(path), f'no screendump {name}.png in {b.outdir}'
    return png.read(path)


def test_fbcon_text_visible(boot_board):
    b = boot_board(BOARD, cmdline=f'{NOACCEL} {MODETEST}', screendumps=True)
    img = shot(b, 'console')
    assert (img.width, img.height) == (1280, 800), \
        f'console is {img.width}x{img.height}; the EDID prefers 1280x800'
    # kernel messages in fbcon's grey on black fill the top of the screen
    text = img.count(lambda p: p[0] == p[1] == p[2] > 100, (0, 0, 640, 400))
    assert text > 5000, f'only {text} text-coloured pixels at the top left'
    assert img.pixel(1270, 790) == (0, 0, 0)


def test_modetest_pattern_colours(boot_board):
    b = boot_board(BOARD, cmdline=f'{NOACCEL} {MODETEST}', screendumps=True)
    assert any('setting mode 1024x768' in l for l in b.report['modetest']), \
        b.report['modetest']
    img = shot(b, 'modetest')
    assert (img.width, img.height) == (1024, 768)
    bar = img.width / 7
    for i, colour in enumerate(BARS):
        x = int(bar * i + bar / 2)
        for y in (50, 250, 450):
            assert img.pixel(x, y) == colour, \
                f'bar {i} at ({x},{y}) is {img.pixel(x, y)}, want {colour}'


def test_tv_head_shows_the_console(boot_board):
    """fbcon clones onto the TV connector, which nouveau drives from head B
    through the CH7006: head B's own console shows the text at the TV mode
    (800x600), through head B's palette."""
    b = boot_board(BOARD, cmdline=f'{NOACCEL} {MODETEST}', screendumps=True)
    img = shot(b, 'console-headb')
    assert (img.width, img.height) == (800, 600), f'{img.width}x{img.height}'
    text = img.count(lambda p: p[0] == p[1] == p[2] > 100, (0, 0, 640, 400))
    assert text > 5000, f'only {text} text-coloured pixels on head B'
