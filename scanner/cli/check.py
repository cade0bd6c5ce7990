"""`cubescan check PATH...`: one cube from photos or a clip, with verdict, diagnosis and
solution."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
import numpy as np
from rich.console import Console

from cubescan.calibration.profile import Profile, load_profile
from cubescan.errors import BadInputError
from cubescan.scanner.cli.preparation import start_preparation, waiting
from cubescan.scanner.cli.validate import print_report
from cubescan.scanner.frames.imageio import check_output_folder, read_image
from cubescan.scanner.frames.sources import open_source
from cubescan.scanner.output.annotations import write_annotations
from cubescan.scanner.pipeline.check import (
    CubeReport,
    check_photos,
    load_photos,
    with_solution,
)
from cubescan.scanner.pipeline.clip import ClipReport, check_clip, read_clip_faces
from cubescan.scanner.pipeline.photos import list_photos
from cubescan.scanner.pipeline.views import ViewsReport, check_views, read_photos_faces
from cubescan.solver.facelets import parse_state
from cubescan.solver.geometry import cube_geometry
from cubescan.solver.moves import apply_moves, format_moves, parse_moves, solved_facelets
from cubescan.solver.slots import center_orbits, slot_sets


def expected_state(report: CubeReport, expect: str | None, scramble: str | None) -> str | None:
    """The facelets the cube should show: a given state, or a scramble applied to solved.

    Parameters
    ----------
    report
        The scanned cube's report; only its ``size`` is read.
    expect
        The state the cube should be in: a facelet string, or the same stickers in colour
        letters (:func:`cubescan.solver.facelets.parse_state`). Used when given.
    scramble
        Otherwise, a WCA scramble (text) that the cube should show from solved.

    Returns
    -------
    str or None
        The expected facelets (URFDLB letters, facelet order); None when neither
        ``expect`` nor ``scramble`` is given.

    Raises
    ------
    BadInputError
        ``expect`` of another size than the report's, or unreadable ``expect`` or
        ``scramble``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> report = SimpleNamespace(size=2)  # stands in for a CubeReport of a 2x2
    >>> expected_state(report, None, "R U") == apply_moves(solved_facelets(2), "R U")
    True
    >>> expected_state(report, solved_facelets(3), None)
    Traceback (most recent call last):
    ...
    cubescan.errors.BadInputError: --expect is a 3x3, the photos show a 2x2
    """
    if expect is not None:
        state = parse_state(expect)
        if state.size != report.size:
            raise BadInputError(
                "bad-expect", f"--expect is a {state.size}x{state.size}, the photos show a "
                f"{report.size}x{report.size}"
            )  # fmt: skip
        return state.facelets
    if scramble is not None:
        return apply_moves(solved_facelets(report.size), parse_moves(scramble, report.size))
    return None


def mismatched_pieces(scanned: str, expected: str, size: int) -> list[str]:
    """Slots (corners, edges, wings) and centre stickers that differ between two states.

    Parameters
    ----------
    scanned, expected
        The two states' facelets (face letters, facelet order, ``6*size*size`` each).
    size
        N.

    Returns
    -------
    list of str
        Slot names (``"URF"``, ``"UR"``, ``"U2/B3"``...): corners first, then middle
        edges, then wings (as :func:`cubescan.solver.slots.slot_sets`); then the centre
        stickers that differ, by facelet name (``"U6"``): the movable centres (4x4 and
        up), and an odd cube's fixed centres, which differ when inner slices moved the
        frame the corners and edges are read against (``E' S2 E S2`` on a 3x3 leaves
        every corner and edge sticker where it was and swaps four centres).

    Examples
    --------
    >>> mismatched_pieces(solved_facelets(3), apply_moves(solved_facelets(3), "U"), 3)[:3]
    ['URF', 'UFL', 'ULB']
    >>> inner = apply_moves(solved_facelets(4), "2R 2U 2R' 2U'")  # moves centers only
    >>> mismatched_pieces(solved_facelets(4), inner, 4)
    ['U11', 'R7', 'F7', 'D7', 'L6', 'B6']
    >>> mismatched_pieces(solved_facelets(3), apply_moves(solved_facelets(3), "E' S2 E S2"), 3)
    ['R5', 'F5', 'L5', 'B5']
    """
    slots = [
        name
        for slot_set in slot_sets(size)
        for name, slot in zip(slot_set.names, slot_set.slots, strict=True)
        if any(scanned[i] != expected[i] for i in slot)
    ]
    name = cube_geometry(size).facelet_name
    fixed = [face * size * size + size * size // 2 for face in range(6)] if size % 2 else []
    centers = [
        name(i)
        for i in [*(i for orbit in center_orbits(size) for i in orbit.facelets), *fixed]
        if scanned[i] != expected[i]
    ]
    return slots + centers


def print_verdict(console: Console, report: CubeReport) -> None:
    """Human output before the solution: the verdict, re-read stickers, doubts.

    Parameters
    ----------
    console
        Where to print.
    report
        The cube's report (with or without its solution).

    Returns
    -------
    None

    Examples
    --------
    >>> from cubescan.scanner.pipeline.check import cube_report
    >>> from cubescan.synth.colors import render_cube
    >>> from cubescan.solver.moves import solved_facelets
    >>> import numpy as np
    >>> lab = render_cube(solved_facelets(2), "cool", np.random.default_rng(0))
    >>> report = cube_report([lab[4 * f : 4 * f + 4] for f in range(6)], solve=False)
    >>> import io
    >>> console = Console(file=io.StringIO(), width=60)
    >>> print_verdict(console, report)
    >>> console.file.getvalue().splitlines()[-1]
    'Solvable.'
    """
    print_report(console, report.validation)
    if report.repairs:
        console.print("[bold]Re-read:[/]")
        for repair in report.repairs:
            console.print(f"  {repair.position}: {repair.old} -> {repair.new} ({repair.why})")
    if report.ambiguous:
        photos = [p.source for p in report.photos if p.face in report.ambiguous_faces]
        console.print(
            f"[yellow]Ambiguous:[/] the photos also fit {len(report.alternatives) - 1} other "
            f"cube(s): face {', '.join(report.ambiguous_faces)} ({', '.join(photos)}) turned "
            "another way gives pieces just as real. Check how that face sits on the cube, "
            "or take the photos in the standard net orientation and use --orientation net."
        )
    elif report.ambiguity_note:
        console.print(f"[green]Orientation settled:[/] {report.ambiguity_note}.")
    if report.valid and report.unsure_stickers:
        unsure = report.unsure_stickers
        console.print(
            f"[yellow]Unsure:[/] {len(unsure)} sticker(s) could be read as another colour "
            f"({', '.join(unsure[:12])}{', ...' if len(unsure) > 12 else ''}); look at "
            "them before trusting this cube, or photograph those faces again in even light."
        )


def _read_clip(video: Path, size: int | None, profile: Profile | None) -> ClipReport:
    """The cube in a clip turning it around: a video file, or a folder of its frames."""
    source = open_source(frames=video) if video.is_dir() else open_source(video=video)
    with source:
        photos, read = read_clip_faces(source, source.fps, size)
    return check_clip(photos, profile, solve=False, frames_read=read)


def _read_joined(
    images: list[np.ndarray], sources: list[str], size: int | None, profile: Profile | None
) -> tuple[ViewsReport, ClipReport | None]:
    """The cube in photos of two or three faces each; of more photos than can be placed
    together, from the key photos that show every face (as a clip's key frames are)."""
    faces = read_photos_faces(images, sources, size)
    try:
        return check_views(faces, profile, solve=False), None
    except BadInputError as error:
        if error.code != "too-many-photos":
            raise
    clip = check_clip(faces, profile, solve=False)
    return clip.views, clip


@click.command("check")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--video",
    type=click.Path(path_type=Path),
    help="Read the cube from a video that turns it around, or a folder of its frames "
    "(instead of photos).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON.")
@click.option("--annotate", type=click.Path(path_type=Path), help="Write annotated photos here.")
@click.option("--profile", "profile_name", help="Use a stored colour profile.")
@click.option("--size", type=click.IntRange(2, 7), help="Cube size N (detected when omitted).")
@click.option(
    "--orientation",
    type=click.Choice(["auto", "net"]),
    default="auto",
    show_default=True,
    help="auto: photos in any order and rotation; net: URFDLB as in the standard net.",
)
@click.option("--expect", help="The state the cube should be in (facelet string).")
@click.option("--scramble", help="The WCA scramble the cube should show.")
def check(
    paths: tuple[Path, ...],
    video: Path | None,
    as_json: bool,
    annotate: Path | None,
    profile_name: str | None,
    size: int | None,
    orientation: str,
    expect: str | None,
    scramble: str | None,
) -> None:
    """Read one cube from its photos and check it.

    One cube from six face photos: a folder, or six files (named U.jpg, cube_F.png,
    ... or given in URFDLB order; any rotation). Or from photos that show two or three
    faces each (two photos from opposite corners; any other number than six photos is read
    so; of more than four, those that show every face are chosen). Or from a clip that
    turns the cube around (--video: a file, or a folder of its frames). Exit 0 solvable
    (and as expected), 1 not solvable or not as expected, 2 unreadable input."""
    if expect is not None and scramble is not None:
        raise BadInputError("bad-usage", "give --expect or --scramble, not both")
    if (video is None) == (not paths):
        raise BadInputError(
            "bad-usage", "give the photos (files or a folder) or --video CLIP, one of the two"
        )
    listed = [] if video is not None else list_photos(list(paths))
    joined = len(listed) != 6
    if annotate is not None:
        if joined:
            raise BadInputError(
                "bad-usage",
                "--annotate draws six single-face photos; draw corner photos with "
                "`cubescan read PHOTO --annotate OUT`",
            )
        check_output_folder(annotate)  # before the work, not after it
    profile = load_profile(profile_name) if profile_name else None
    if video is None and joined:
        images = [read_image(path) for path in listed]
        sources = [str(path) for path in listed]
    elif video is None:
        sources, images = load_photos(listed)
    preparation = start_preparation(["detector", "solver"])
    views, clip, photos = None, None, None
    with waiting("reading the clip" if video is not None else "reading the photos"):
        if video is not None:
            clip = _read_clip(video, size, profile)
            views = clip.views
        elif joined:
            views, clip = _read_joined(images, sources, size, profile)
        else:
            report, photos = check_photos(images, sources, size, orientation, profile, solve=False)
    if views is not None:
        report = views.cube
    conflicts = views.conflicts if views is not None else ()
    ambiguous = views is not None and views.ambiguous
    placed = views.placed if views is not None else ()
    console = Console()
    if not as_json:
        # The verdict before the solution: on the first run the solver may still be
        # building its tables, and what is wrong with the cube needs none of them.
        print_verdict(console, report)
        if clip is not None:
            what = "frames of the clip" if video is not None else "photos"
            console.print(
                f"Read {clip.frames_read} {what}: faces in {clip.frames_with_faces}, "
                f"{clip.looks} different faces; the cube is read from "
                f"{', '.join(dict.fromkeys(p.source.split(' #')[0] for p in report.photos))}.",
                style="dim",
            )
        if placed:
            console.print(
                f"Placed where the faces beside them put them, not found: {', '.join(placed)} "
                "(the cube they make is sound).",
                style="dim",
            )
        for line in conflicts:
            console.print(f"[yellow]Conflict:[/] {line}")
        if ambiguous:
            console.print(
                "[yellow]Ambiguous:[/] the photos also fit another cube: take a photo of a "
                "third corner"
            )
    if report.valid:
        with waiting("solving"):
            preparation.wait_for_solver()
            report = with_solution(report)
    else:
        report = with_solution(report)
    preparation.finish()
    if annotate is not None:
        write_annotations(report, photos, annotate)
    expected = expected_state(report, expect, scramble)
    mismatch = (
        None if expected is None else mismatched_pieces(report.facelets, expected, report.size)
    )
    if as_json:
        data = report.to_dict()
        if views is not None:
            data["conflicts"] = list(conflicts)
            data["ambiguous"] = data["ambiguous"] or ambiguous
            data["placed"] = list(placed)
        if clip is not None:
            data["clip"] = {
                "frames_read": clip.frames_read,
                "frames_with_faces": clip.frames_with_faces,
                "looks": clip.looks,
            }
        if expected is not None:
            data["expected"] = {"facelets": expected, "match": not mismatch, "mismatched": mismatch}
        click.echo(json.dumps(data, indent=2))
    else:
        if report.solution is not None:
            console.print(f"[bold]Solution[/] ({len(report.solution)} moves): "
                          f"{format_moves(report.solution)}")  # fmt: skip
        elif report.valid:
            console.print(report.solution_note)
        if expected is not None:
            if mismatch:
                console.print(f"[bold red]Not the expected state:[/] {', '.join(mismatch)} differ")
            else:
                console.print("[bold green]Matches the expected state.[/]")
        for photo in report.photos:
            console.print(
                f"  {photo.source}: face {photo.face}, turned {photo.quarter_turns * 90} degrees",
                style="dim",
            )
    sys.exit(0 if report.valid and not mismatch and not conflicts else 1)
