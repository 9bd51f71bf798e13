"""Read the PNGs QEMU's screendump writes, so tests can check pixels.
Decoding is Debian's python3-pil (Pillow); an image is kept as its RGB
bytes, row after row."""


class Image:
    def __init__(self, width, height, data):
        self.width, self.height, self.data = width, height, data

    def pixel(self, x, y):
        o = (y * self.width + x) * 3
        return tuple(self.data[o:o + 3])

    def count(self, pred, box=None):
        x0, y0, x1, y1 = box or (0, 0, self.width, self.height)
        return sum(1 for y in range(y0, y1) for x in range(x0, x1)
                   if pred(self.pixel(x, y)))

    def differences(self, other):
        """[(x, y)] where @other, of the same size, has another colour."""
        if self.data == other.data:
            return []
        a, b, w = self.data, other.data, self.width
        return [(i // 3 % w, i // 3 // w) for i in range(0, len(a), 3)
                if a[i:i + 3] != b[i:i + 3]]


def read(path):
    from PIL import Image as PILImage       # python3-pil

    with PILImage.open(path) as im:
        if im.format != 'PNG':
            raise ValueError(f'{path}: not a PNG')
        if im.mode not in ('RGB', 'RGBA'):
            raise ValueError(f'{path}: unsupported PNG (mode {im.mode})')
        return Image(im.width, im.height, im.convert('RGB').tobytes())
