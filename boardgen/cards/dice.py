"""Paper dice: foldable nets for d4, d6, d8, d10 (pentagonal trapezohedron), d12 and d20.

Each die is a convex polyhedron built in 3D; its faces are unfolded along a spanning tree of the face graph
(tried from every root, breadth first, until no two faces overlap), glue tabs go on one side of every edge
left open, and the faces are numbered so that opposite faces add up to sides + 1 (d4: numbers at the
corners, read the one on top). Sizes: every die is ``components.dice_size`` corner to corner.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from shapely.geometry import Point, Polygon, box
from shapely.ops import unary_union

from boardgen.cards.model import Component, ComponentSet, geometry_path
from boardgen.i18n import Translator, current
from boardgen.render.cairo_backend import fit_font
from boardgen.render.scene import PT, Font, Group, Op, Path, Scene, Style, Text, rotate
from boardgen.schema import DICE_SIDES

Vec = tuple[float, float, float]
INK = "#1a1a1a"
PHI = (1 + 5**0.5) / 2
DIE_COLOURS = {4: "#d9c6ec", 6: "#ffffff", 8: "#f3d3e6", 10: "#d9c6ec", 12: "#cde8c4", 20: "#d9c6ec"}
"""Face colours after the seed's dice: purple d4, white d6, blue-pink d8, purple d10, green d12, purple d20."""
D8_SECOND_COLOUR = "#c8dcf5"
"""The d8 is two-tone, blue and pink like the original's: neighbouring faces differ."""


def _face_colour(p: Polyhedron, sides: int, face: int, colour: str) -> str:
    """The d8's faces alternate pink and blue (by which octant the face faces); other dice are one colour."""
    if sides != 8:
        return colour
    cx, cy, cz = (sum(p.vertices[v][i] for v in p.faces[face]) for i in range(3))
    return colour if cx * cy * cz > 0 else D8_SECOND_COLOUR


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def _norm(a: Vec) -> float:
    return math.sqrt(_dot(a, a))


def _unit(a: Vec) -> Vec:
    n = _norm(a)
    return (a[0] / n, a[1] / n, a[2] / n)


def _centroid(points: list[Vec]) -> Vec:
    n = len(points)
    return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n, sum(p[2] for p in points) / n)


@dataclass(frozen=True)
class Polyhedron:
    vertices: tuple[Vec, ...]
    faces: tuple[tuple[int, ...], ...]  # vertex indices, counter-clockwise seen from outside


def _hull_faces(vertices: list[Vec], face_size: int) -> tuple[tuple[int, ...], ...]:
    """Faces of a convex polyhedron whose faces all have ``face_size`` corners (brute force, small solids)."""
    faces: set[tuple[int, ...]] = set()
    n = len(vertices)
    for a, b, c in combinations(range(n), 3):
        normal = _cross(_sub(vertices[b], vertices[a]), _sub(vertices[c], vertices[a]))
        if _norm(normal) < 1e-9:
            continue
        normal = _unit(normal)
        d = _dot(normal, vertices[a])
        side = [_dot(normal, v) - d for v in vertices]
        if max(side) > 1e-6 and min(side) < -1e-6:
            continue
        if max(side) > 1e-6:
            normal, d = (-normal[0], -normal[1], -normal[2]), -d
        on = [i for i in range(n) if abs(_dot(normal, vertices[i]) - d) < 1e-6]
        if len(on) != face_size:
            continue
        centre = _centroid([vertices[i] for i in on])
        u = _unit(_sub(vertices[on[0]], centre))
        w = _cross(normal, u)
        on.sort(key=lambda i: math.atan2(_dot(_sub(vertices[i], centre), w), _dot(_sub(vertices[i], centre), u)))
        k = on.index(min(on))
        faces.add(tuple(on[k:] + on[:k]))
    return tuple(sorted(faces))


def _trapezohedron() -> Polyhedron:
    """Pentagonal trapezohedron (d10) with planar kites: rings at +-z0, poles at +-h."""
    z0 = 0.1056
    # kite T, U0, L0, U1 planar: solve for the pole height h numerically
    u0 = (1.0, 0.0, z0)
    u1 = (math.cos(math.radians(72)), math.sin(math.radians(72)), z0)
    l0 = (math.cos(math.radians(36)), math.sin(math.radians(36)), -z0)
    normal = _cross(_sub(u1, u0), _sub(l0, u0))
    # plane through u0,u1,l0 meets the z axis at the pole
    h = _dot(normal, u0) / normal[2]
    verts: list[Vec] = [(0.0, 0.0, h), (0.0, 0.0, -h)]
    for k in range(5):
        a = math.radians(72 * k)
        verts.append((math.cos(a), math.sin(a), z0))
    for k in range(5):
        a = math.radians(72 * k + 36)
        verts.append((math.cos(a), math.sin(a), -z0))
    return Polyhedron(tuple(verts), _hull_faces(verts, 4))


@cache
def polyhedron(sides: int) -> Polyhedron:
    if sides == 4:
        verts: list[Vec] = [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)]
        return Polyhedron(tuple(verts), _hull_faces(verts, 3))
    if sides == 6:
        verts = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        return Polyhedron(tuple(verts), _hull_faces(verts, 4))
    if sides == 8:
        verts = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]
        return Polyhedron(tuple(verts), _hull_faces(verts, 3))
    if sides == 10:
        return _trapezohedron()
    if sides == 12:
        verts = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
        for a in (-1, 1):
            for b in (-1, 1):
                verts += [(0, a / PHI, b * PHI), (a / PHI, b * PHI, 0), (a * PHI, 0, b / PHI)]
        return Polyhedron(tuple(verts), _hull_faces(verts, 5))
    if sides == 20:
        verts = []
        for a in (-1, 1):
            for b in (-1, 1):
                verts += [(0, a, b * PHI), (a, b * PHI, 0), (a * PHI, 0, b)]
        return Polyhedron(tuple(verts), _hull_faces(verts, 3))
    raise ValueError(f"no die with {sides} sides; expected one of {DICE_SIDES}")


# ------------------------------------------------------------------------------------------ unfolding


@dataclass(frozen=True)
class Net:
    sides: int
    faces: tuple[tuple[tuple[float, float], ...], ...]  # 2D corners per face (same order as the 3D face)
    tree_edges: tuple[tuple[int, int], ...]  # (face, face) pairs joined by a fold
    open_edges: tuple[tuple[int, int, int, int], ...]  # (face a, corner i, face b, corner j) glued edge pairs
    numbers: tuple[int, ...]  # the number printed on each face (d4: unused)
    vertex_numbers: tuple[int, ...]  # d4: number of each 3D vertex


def _edge_map(p: Polyhedron) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Undirected edge (v, w) -> [(face, corner index of the edge's start)]."""
    edges: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for f, face in enumerate(p.faces):
        for i in range(len(face)):
            a, b = face[i], face[(i + 1) % len(face)]
            edges.setdefault((min(a, b), max(a, b)), []).append((f, i))
    return edges


def _face_frame(p: Polyhedron, f: int, a: int, b: int) -> dict[int, tuple[float, float]]:
    """Face f's corners in a 2D frame with vertex a at the origin and b on the +x axis, face on the +y side."""
    face = p.faces[f]
    va, vb = p.vertices[a], p.vertices[b]
    ex = _unit(_sub(vb, va))
    centre = _centroid([p.vertices[i] for i in face])
    to_c = _sub(centre, va)
    ey = _unit(_sub(to_c, tuple(_dot(to_c, ex) * c for c in ex)))  # type: ignore[arg-type]
    return {i: (_dot(_sub(p.vertices[i], va), ex), _dot(_sub(p.vertices[i], va), ey)) for i in face}


def _place_child(local: dict[int, tuple[float, float]], a2: tuple[float, float], b2: tuple[float, float],
                 away_from: tuple[float, float]) -> dict[int, tuple[float, float]]:
    dx, dy = b2[0] - a2[0], b2[1] - a2[1]
    length = math.hypot(dx, dy)
    ex = (dx / length, dy / length)
    ey = (-ex[1], ex[0])
    # the child lies on the side of the shared edge away from the parent's centre
    side = (away_from[0] - a2[0]) * ey[0] + (away_from[1] - a2[1]) * ey[1]
    if side > 0:
        ey = (-ey[0], -ey[1])
    return {i: (a2[0] + u * ex[0] + v * ey[0], a2[1] + u * ex[1] + v * ey[1]) for i, (u, v) in local.items()}


def _unfold(p: Polyhedron, root: int) -> tuple[list[dict[int, tuple[float, float]]], list[tuple[int, int]]] | None:
    edges = _edge_map(p)
    neighbours: dict[int, list[tuple[int, int, int]]] = {f: [] for f in range(len(p.faces))}
    for (a, b), users in sorted(edges.items()):
        (f, _), (g, _) = users
        neighbours[f].append((g, a, b))
        neighbours[g].append((f, a, b))
    placed: dict[int, dict[int, tuple[float, float]]] = {}
    face0 = p.faces[root]
    placed[root] = _face_frame(p, root, face0[0], face0[1])
    tree: list[tuple[int, int]] = []
    queue = deque([root])
    while queue:
        f = queue.popleft()
        centre = (sum(x for x, _ in placed[f].values()) / len(placed[f]),
                  sum(y for _, y in placed[f].values()) / len(placed[f]))
        for g, a, b in neighbours[f]:
            if g in placed:
                continue
            local = _face_frame(p, g, a, b)
            placed[g] = _place_child(local, placed[f][a], placed[f][b], centre)
            tree.append((f, g))
            queue.append(g)
    polys = [Polygon([placed[f][i] for i in p.faces[f]]) for f in range(len(p.faces))]
    for i, j in combinations(range(len(polys)), 2):
        if polys[i].intersection(polys[j]).area > 1e-6:
            return None
    return [placed[f] for f in range(len(p.faces))], tree


def _opposite_numbers(p: Polyhedron, sides: int) -> tuple[int, ...]:
    """Face numbers 1..n with opposite faces (most anti-parallel normals) adding up to n + 1."""
    n = len(p.faces)
    normals = [_unit(_centroid([p.vertices[i] for i in face])) for face in p.faces]
    numbers = [0] * n
    next_low = 1
    for f in range(n):
        if numbers[f]:
            continue
        opposite = min((g for g in range(n) if g != f and not numbers[g]), key=lambda g: _dot(normals[f], normals[g]))
        numbers[f], numbers[opposite] = next_low, sides + 1 - next_low
        next_low += 1
    return tuple(numbers)


@cache
def die_net(sides: int) -> Net:
    p = polyhedron(sides)
    for root in range(len(p.faces)):
        result = _unfold(p, root)
        if result is not None:
            break
    else:  # pragma: no cover - every die above has a non-overlapping BFS net
        raise RuntimeError(f"no flat net found for d{sides}")
    placed, tree = result
    tree_set = {frozenset(e) for e in tree}
    open_edges = []
    for (_a, _b), users in sorted(_edge_map(p).items()):
        (f, i), (g, j) = users
        if frozenset((f, g)) not in tree_set:
            open_edges.append((f, i, g, j))
    numbers = _opposite_numbers(p, sides) if sides != 4 else tuple(range(1, 5))
    return Net(sides, tuple(tuple(placed[f][v] for v in p.faces[f]) for f in range(len(p.faces))), tuple(tree),
               tuple(open_edges), numbers, tuple(range(1, len(p.vertices) + 1)))


# ------------------------------------------------------------------------------------------ drawing


def _tab(a: tuple[float, float], b: tuple[float, float], inside: tuple[float, float], depth: float) -> Polygon:
    """A trapezoid glue tab on edge a-b, on the side away from ``inside``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    if (inside[0] - a[0]) * nx + (inside[1] - a[1]) * ny > 0:
        nx, ny = -nx, -ny
    inset = min(depth, length * 0.25)
    ux, uy = dx / length, dy / length
    return Polygon([a, b, (b[0] - ux * inset + nx * depth, b[1] - uy * inset + ny * depth),
                    (a[0] + ux * inset + nx * depth, a[1] + uy * inset + ny * depth)])


def folded_size_mm(sides: int, size_mm: float) -> tuple[float, float, float]:
    """The folded die's extent along its three axes (a cube's: its edge, three times) when ``die_component``
    folds it to ``size_mm`` corner to corner: what an inventory states as the die's size."""
    p = polyhedron(sides)
    s = size_mm / (2 * max(_norm(v) for v in p.vertices))
    extent = [round((max(v[k] for v in p.vertices) - min(v[k] for v in p.vertices)) * s, 2) for k in range(3)]
    return extent[0], extent[1], extent[2]


def die_component(sides: int, size_mm: float, tr: Translator | None = None) -> Component:
    """The paper net of a die with ``sides`` faces (``DICE_SIDES``) that folds to ``size_mm`` corner to corner,
    its faces numbered, with glue tabs."""
    net = die_net(sides)
    p = polyhedron(sides)
    radius = max(_norm(v) for v in p.vertices)
    s = size_mm / (2 * radius)
    faces = [Polygon([(x * s, y * s) for x, y in face]) for face in net.faces]
    body = unary_union(faces)
    edge_len = min(math.dist(f.exterior.coords[0], f.exterior.coords[1]) for f in faces)
    depth = min(5.0, edge_len * 0.3)
    tabs: list[Polygon] = []
    for f, i, g, j in net.open_edges:
        done = False
        for face_index, corner in ((f, i), (g, j)):
            coords = list(faces[face_index].exterior.coords)[:-1]
            a, b = coords[corner], coords[(corner + 1) % len(coords)]
            centre = faces[face_index].centroid
            tab = _tab(a, b, (centre.x, centre.y), depth)
            taken = unary_union([body, *tabs])
            if tab.intersection(taken).area < 1e-6:
                tabs.append(tab)
                done = True
                break
        if not done:  # both sides blocked: a narrower tab on the first face
            coords = list(faces[f].exterior.coords)[:-1]
            centre = faces[f].centroid
            tabs.append(_tab(coords[i], coords[(i + 1) % len(coords)], (centre.x, centre.y), depth * 0.5))
    minx, miny, maxx, maxy = unary_union([body, *tabs]).bounds
    ox, oy = -minx, -miny

    def shift(poly: Polygon) -> Polygon:
        return Polygon([(x + ox, y + oy) for x, y in poly.exterior.coords])

    faces = [shift(f) for f in faces]
    tabs = [shift(t) for t in tabs]
    colour = DIE_COLOURS.get(sides, "#ffffff")
    ops: list[Op] = []
    for t in tabs:
        ops.append(Path(geometry_path(t), Style(fill="#d8d8d8", stroke=INK, stroke_width_mm=0.25), "glue-tab"))
    for k, f in enumerate(faces):
        ops.append(Path(geometry_path(f), Style(fill=_face_colour(p, sides, k, colour)), "die-face"))
    outline = unary_union([g.buffer(1e-4, join_style="mitre") for g in (*faces, *tabs)]).buffer(
        -1e-4, join_style="mitre").simplify(1e-4)
    if outline.geom_type != "Polygon":  # pragma: no cover - faces of a net are joined edge to edge
        raise RuntimeError(f"d{sides} net is not one piece")
    edges = {tuple(sorted(((round(a[0], 3), round(a[1], 3)), (round(b[0], 3), round(b[1], 3)))))
             for f in faces for a, b in zip(list(f.exterior.coords)[:-1], list(f.exterior.coords)[1:], strict=True)}
    # an edge inside the outline (between two faces, or a face and its tab) is folded; the rest is cut
    folds = tuple(sorted(e for e in edges
                         if outline.exterior.distance(Point((e[0][0] + e[1][0]) / 2, (e[0][1] + e[1][1]) / 2)) > 0.05))
    fold_style = Style(stroke=INK, stroke_width_mm=0.2, dash_mm=(1.2, 0.8))
    ops.extend(Path((("M", *a), ("L", *b)), fold_style, "fold-line") for a, b in folds)
    for face_index, f in enumerate(faces):
        c = f.centroid
        inradius = f.exterior.distance(c)
        if sides == 4:
            ops.extend(_d4_numbers(p, net, face_index, f, inradius))
            continue
        number = net.numbers[face_index]
        text = str(number) + ("." if number in (6, 9) else "")
        corners = len(f.exterior.coords) - 1
        cap_mm = inradius * {3: 0.95, 4: 0.8, 5: 0.7}.get(corners, 0.8)
        font = fit_font(text, Font(size_pt=cap_mm / 0.73 / PT, bold=True), inradius * (1.45 if corners < 5 else 1.2))
        angle = _face_angle(f, sides)
        ops.append(Group((Text(c.x, c.y, text, font, INK, align="center", baseline="middle", name="die-number"),),
                         transform=rotate(angle, c.x, c.y)))
    ops.append(Path(geometry_path(outline), Style(stroke=INK, stroke_width_mm=0.3, line_join="round"), "cut-line"))
    width, height = maxx - minx, maxy - miny
    # TRANSLATORS: a die's name printed on its net: d6 is a six-sided die (German W6)
    name = (tr or current()).gettext("d{sides}").format(sides=sides)
    name_font = Font(size_pt=9, bold=True)
    for lx, ly in ((1.0, 1.0), (width - 9.0, 1.0), (1.0, height - 5.0), (width - 9.0, height - 5.0)):
        if not box(lx, ly, lx + 9.0, ly + 5.0).intersects(outline):
            ops.append(Text(lx + 0.5, ly + 4.0, name, name_font, INK, name="die-name"))
            break
    else:
        c = faces[0].centroid
        ops.append(Text(c.x, c.y + faces[0].exterior.distance(c) * 0.75, name, Font(size_pt=5), INK,
                        align="center", baseline="middle", name="die-name"))
    return Component("die", name, width, height, Scene(tuple(ops)), geometry_path(outline),
                     folds=tuple(tuple(seg) for seg in folds), marks=False)


def _label_point(face: Polygon, sides: int) -> tuple[float, float]:
    c = face.centroid
    return (c.x, c.y)


def _face_angle(face: Polygon, sides: int) -> float:
    """Turn each number to read along its face's first edge (any fixed rule reads fine on a die)."""
    (ax, ay), (bx, by) = list(face.exterior.coords)[0:2]
    angle = math.degrees(math.atan2(by - ay, bx - ax))
    if sides == 10:  # kites: read towards the pole (corner 0 of each face)
        c = face.centroid
        angle = math.degrees(math.atan2(ay - c.y, ax - c.x)) + 90.0
    return angle


def _d4_numbers(p: Polyhedron, net: Net, face_index: int, face: Polygon, inradius: float) -> list[Op]:
    """A d4 shows the number of each corner near that corner, upright from it; the number on top is the roll."""
    ops: list[Op] = []
    coords = list(face.exterior.coords)[:-1]
    c = face.centroid
    font = Font(size_pt=inradius * 0.5 / 0.73 / PT, bold=True)
    for k, vertex in enumerate(p.faces[face_index]):
        x, y = coords[k]
        px, py = x + (c.x - x) * 0.5, y + (c.y - y) * 0.5
        angle = math.degrees(math.atan2(c.y - y, c.x - x)) - 90.0
        ops.append(Group((Text(px, py, str(net.vertex_numbers[vertex]), font, INK, align="center", baseline="middle",
                               name="die-number"),), transform=rotate(angle, px, py)))
    return ops


def dice(size_mm: float, sides: tuple[int, ...] = DICE_SIDES, tr: Translator | None = None) -> ComponentSet:
    """One paper die of each of ``sides``, each ``size_mm`` corner to corner."""
    parts = tuple(die_component(n, size_mm, tr) for n in sides)
    title = (tr or current()).gettext("Paper dice: cut, fold on the dashed lines, glue the grey tabs")
    return ComponentSet("die", title, parts,
                        uniform=False)
