"""Print-shop PDFs: an RGB PDF from cairo turned into a CMYK PDF/X-4 file.

Every colour operator in the page content (and in form XObjects) is rewritten from sRGB to CMYK:

* neutral colours (r = g = b) go to black ink only: dark ones (``BLACK_MAX`` and below, the kit's "ink black"
  #1a1a1a, #2e2e2e, #333333 and black) to C=M=Y=0, K=100, so small text and thin lines print in one ink, never
  as four-colour black that smears when the plates are a hair out of register; lighter greys to the K-only tint
  whose lightness (CIE L*) matches the grey's;
* every other colour goes through LittleCMS (Pillow's ImageCms): sRGB IEC61966-2.1 to the output profile,
  relative colorimetric with black-point compensation.

The output condition is FOGRA39 (ISO 12647-2:2004, offset, coated paper), the most common condition European
print shops ask for, described by ``boardgen/icc/FOGRA39L-boardgen.icc`` (see docs/print-shop.md for where
that profile comes from and its licence). The file carries the profile as its OutputIntent, says PDF/X-4 in the
document information and the XMP metadata, keeps its TrimBox/BleedBox, and its fonts stay embedded.

Pictures a template places (``boardgen.render.images``) reach the PDF as 8-bit DeviceRGB image XObjects (with a
DeviceGray soft mask for their transparency): their pixels go through the same LittleCMS transform. Only what
cairo writes for our scenes is supported (rg/RG/g/G colours, such images, no shadings): anything else raises
``PressError`` rather than slipping an RGB object into a CMYK file.
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import pikepdf
from PIL import Image, ImageCms

PROFILE_PATH = Path(__file__).resolve().parent.parent / "icc" / "FOGRA39L-boardgen.icc"
OUTPUT_CONDITION_IDENTIFIER = "FOGRA39"
OUTPUT_CONDITION = "Offset printing on coated paper, ISO 12647-2:2004/Amd 1 (FOGRA39L characterisation data)"
REGISTRY = "http://www.color.org"
BLACK_MAX = 0.2  # neutral colours this dark or darker are printed as solid black ink (K=100)
FIXED_XMP_DATE = "2026-01-01T00:00:00Z"

CMYK = tuple[float, float, float, float]


class PressError(ValueError):
    """The PDF holds something the CMYK conversion does not handle (an image, a shading, an RGB colour space)."""


def srgb_lightness(v: float) -> float:
    """CIE L* of the sRGB grey (v, v, v), v in 0..1."""
    lin = v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 116.0 * lin ** (1 / 3) - 16.0 if lin > 216 / 24389 else lin * 24389 / 27


@dataclass
class CmykConverter:
    """sRGB -> CMYK for one output profile, colour by colour (cached)."""

    profile_path: Path = PROFILE_PATH
    black_max: float = BLACK_MAX
    _cache: dict[tuple[float, float, float], CMYK] = field(default_factory=dict)

    @cached_property
    def profile(self) -> ImageCms.ImageCmsProfile:
        return ImageCms.getOpenProfile(str(self.profile_path))

    @cached_property
    def _to_cmyk(self) -> ImageCms.ImageCmsTransform:
        return ImageCms.buildTransform(ImageCms.createProfile("sRGB"), self.profile, "RGB", "CMYK",
                                       renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                       flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)

    @cached_property
    def k_lightness(self) -> list[float]:
        """L* of K-only ink at 0, 1, ..., 100 % on this paper (relative to the paper white)."""
        to_lab = ImageCms.buildTransform(self.profile, ImageCms.createProfile("LAB", 5000), "CMYK", "LAB",
                                         renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        patches = Image.new("CMYK", (101, 1))
        patches.putdata([(0, 0, 0, round(k * 2.55)) for k in range(101)])
        lab = ImageCms.applyTransform(patches, to_lab)
        assert lab is not None
        return [lab.getpixel((k, 0))[0] * 100 / 255 for k in range(101)]  # type: ignore[index]

    def k_for_lightness(self, lightness: float) -> float:
        """The K tint (0..1) whose L* on this paper is ``lightness`` (K-only inks are monotonic)."""
        table = self.k_lightness
        if lightness >= table[0]:
            return 0.0
        for k in range(1, 101):
            if table[k] <= lightness:
                a, b = table[k - 1], table[k]
                return (k - 1 + (a - lightness) / (a - b if a != b else 1.0)) / 100
        return 1.0

    def rgb(self, r: float, g: float, b: float) -> CMYK:
        key = (round(r, 4), round(g, 4), round(b, 4))
        if key not in self._cache:
            self._cache[key] = self._convert(*key)
        return self._cache[key]

    def prime(self, colours: Iterable[tuple[float, float, float]]) -> None:
        """Convert the colours not converted yet that go through LittleCMS in one call (a row of pixels,
        each converted on its own: the same values as one at a time)."""
        keys = {(round(r, 4), round(g, 4), round(b, 4)) for r, g, b in colours} - self._cache.keys()
        chromatic = sorted(key for key in keys if not _is_grey(*key))
        if not chromatic:
            return
        row = Image.new("RGB", (len(chromatic), 1))
        row.putdata([_byte_rgb(*key) for key in chromatic])
        out = ImageCms.applyTransform(row, self._to_cmyk)
        assert out is not None
        for i, key in enumerate(chromatic):
            self._cache[key] = _cmyk_of_bytes(out.getpixel((i, 0)))

    def _convert(self, r: float, g: float, b: float) -> CMYK:
        if _is_grey(r, g, b):  # black ink only
            v = (r + g + b) / 3
            if v <= self.black_max + 1e-6:
                return (0.0, 0.0, 0.0, 1.0)
            if v >= 1 - 0.5 / 255:
                return (0.0, 0.0, 0.0, 0.0)
            return (0.0, 0.0, 0.0, round(self.k_for_lightness(srgb_lightness(v)), 4))
        pixel = Image.new("RGB", (1, 1), _byte_rgb(r, g, b))
        out = ImageCms.applyTransform(pixel, self._to_cmyk)
        assert out is not None
        return _cmyk_of_bytes(out.getpixel((0, 0)))


def _is_grey(r: float, g: float, b: float) -> bool:
    return max(r, g, b) - min(r, g, b) <= 1.5 / 255


def _byte_rgb(r: float, g: float, b: float) -> tuple[int, int, int]:
    return (round(r * 255), round(g * 255), round(b * 255))


def _cmyk_of_bytes(pixel: Any) -> CMYK:
    c, m, y, k = pixel
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


_COLOUR_OPS = {"rg": "k", "RG": "K", "g": "k", "G": "K"}
_REFUSED_OPS = {"cs", "CS", "sc", "SC", "scn", "SCN", "sh", "BI", "ID", "EI"}


def _convert_stream(pdf: pikepdf.Pdf, owner: pikepdf.Object, converter: CmykConverter) -> pikepdf.Stream:
    instructions = pikepdf.parse_content_stream(owner)
    rgb_operands = [instruction.operands for instruction in instructions
                    if str(instruction.operator) in ("rg", "RG")]
    converter.prime((float(r), float(g), float(b)) for r, g, b in rgb_operands)
    for i, instruction in enumerate(instructions):  # only colour operators are replaced; the rest stay as parsed
        op = str(instruction.operator)
        if op in _REFUSED_OPS:
            raise PressError(f"content operator {op!r} is not converted to CMYK")
        if op in _COLOUR_OPS:
            values = [float(v) for v in instruction.operands]
            cmyk = converter.rgb(*values) if len(values) == 3 else converter.rgb(values[0], values[0], values[0])
            operands: list[Any] = [_pdf_number(v) for v in cmyk]
            instructions[i] = pikepdf.ContentStreamInstruction(operands, pikepdf.Operator(_COLOUR_OPS[op]))
    return pikepdf.Stream(pdf, pikepdf.unparse_content_stream(instructions))


@lru_cache(maxsize=1024)
def _pdf_number(v: float) -> Decimal:
    return Decimal(f"{v:.4f}").normalize()


def _convert_resources(pdf: pikepdf.Pdf, resources: pikepdf.Object, converter: CmykConverter,
                       seen: set[tuple[int, int]]) -> None:
    for key in ("/Shading", "/Pattern"):
        if key in resources and len(resources[key]) > 0:
            raise PressError(f"resources {key} are not converted to CMYK")
    if "/ColorSpace" in resources and len(resources.ColorSpace) > 0:
        raise PressError("named colour spaces are not converted to CMYK")
    for _name, xobject in (resources.get("/XObject") or {}).items():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == pikepdf.Name.Image:
            _convert_image(xobject, converter)
            continue
        if xobject.get("/Subtype") != pikepdf.Name.Form:
            raise PressError(f"{xobject.get('/Subtype')} XObjects are not converted to CMYK")
        converted = _convert_stream(pdf, xobject, converter)
        xobject.write(converted.read_bytes(), filter=pikepdf.Name.FlateDecode)
        _fix_group(xobject)
        if "/Resources" in xobject:
            _convert_resources(pdf, xobject.Resources, converter, seen)


def _convert_image(image: pikepdf.Object, converter: CmykConverter) -> None:
    """An 8-bit DeviceRGB image XObject rewritten as DeviceCMYK through the converter's LittleCMS transform (its
    soft mask, DeviceGray, stays as it is)."""
    if image.get("/ColorSpace") == pikepdf.Name.DeviceGray or image.get("/ImageMask") is True:
        return
    if image.get("/ColorSpace") != pikepdf.Name.DeviceRGB or int(image.get("/BitsPerComponent", 0)) != 8:
        raise PressError(f"an image in {image.get('/ColorSpace')} is not converted to CMYK (8-bit DeviceRGB only)")
    width, height = int(image.Width), int(image.Height)
    pixels = image.read_bytes()
    if len(pixels) != width * height * 3:
        raise PressError("an image's pixel data does not match its size")
    rgb = Image.frombytes("RGB", (width, height), pixels)
    cmyk = ImageCms.applyTransform(rgb, converter._to_cmyk)
    assert cmyk is not None
    image.write(zlib.compress(cmyk.tobytes(), 9), filter=pikepdf.Name.FlateDecode)
    image.ColorSpace = pikepdf.Name.DeviceCMYK
    if "/Decode" in image:
        del image["/Decode"]


def _fix_group(owner: pikepdf.Object) -> None:
    group = owner.get("/Group")
    if isinstance(group, pikepdf.Dictionary) and "/CS" in group:
        group.CS = pikepdf.Name.DeviceCMYK


def _xmp_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


PRODUCER = "boardgen (cairo, pikepdf, LittleCMS)"


def xmp_packet(title: str, date: str = FIXED_XMP_DATE) -> bytes:
    """The XMP metadata of a PDF/X-4 file (fixed dates and ids, so the bytes stay the same)."""
    return f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_xmp_text(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreatorTool>boardgen</xmp:CreatorTool>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmpMM:DocumentID>uuid:00000000-0000-4000-8000-000000000000</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:00000000-0000-4000-8000-000000000001</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdf:Producer>{PRODUCER}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>""".encode()


def to_pdfx4(data: bytes, title: str, converter: CmykConverter | None = None) -> bytes:
    """The RGB PDF ``data`` as a CMYK PDF/X-4 file with a FOGRA39 OutputIntent (same pages, boxes, fonts)."""
    converter = converter or CmykConverter()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        seen: set[tuple[int, int]] = set()
        for page in pdf.pages:
            if "/TrimBox" not in page.obj:
                raise PressError("PDF/X needs a TrimBox on every page")
            page.obj.Contents = _convert_stream(pdf, page.obj, converter)
            _fix_group(page.obj)
            _convert_resources(pdf, page.obj.Resources, converter, seen)
        profile = pikepdf.Stream(pdf, converter.profile_path.read_bytes())
        profile.N = 4
        pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
            Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
            OutputConditionIdentifier=pikepdf.String(OUTPUT_CONDITION_IDENTIFIER),
            OutputCondition=pikepdf.String(OUTPUT_CONDITION), RegistryName=pikepdf.String(REGISTRY),
            Info=pikepdf.String("FOGRA39L coated, profile made from colord's CC0 FOGRA39L data"),
            DestOutputProfile=profile)])
        metadata = pikepdf.Stream(pdf, xmp_packet(title))
        metadata.Type = pikepdf.Name.Metadata
        metadata.Subtype = pikepdf.Name.XML
        pdf.Root.Metadata = metadata
        pdf.docinfo["/Title"] = pikepdf.String(title)
        pdf.docinfo["/Producer"] = pikepdf.String(PRODUCER)  # as the XMP says: a preflight compares the two
        pdf.docinfo["/GTS_PDFXVersion"] = pikepdf.String("PDF/X-4")
        pdf.docinfo["/Trapped"] = pikepdf.Name("/False")
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True, min_version="1.6")
    return out.getvalue()

