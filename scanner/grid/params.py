"""Every threshold of the grid detector, in one place, in pipeline order.

Each constant says what it bounds and why. The stage modules import them from here, so that
a threshold is tuned (on sets of scenes and photos, never on one image) in one file.
Lengths in pixels are in the image the stage works on unless said otherwise; Lab units are
OpenCV's 8-bit ones (lightness 0..255).
"""

from __future__ import annotations

# Working scales -------------------------------------------------------------------------------

WORK_SIDE = 640
"""Long side, in pixels, of the image the detector works on."""

# The working image's blur (a 3x3 Gaussian: sigma 0.8 px) less the bilinear enlargement's own
# smoothing (a triangle kernel, sigma 0.4 px), in the frame's pixels.
ENLARGED_BLUR = 0.7
CHROMA_BLUR = 1.0  # sigma of the chroma channels' further blur, in the frame's pixels
MAX_BLOCK_FACTOR = 16  # a 5120-px long side to 320; its rounding table has 65,281 entries

# 1. Regions -----------------------------------------------------------------------------------

MAX_LIGHTNESS_STRETCH = 2.5  # the most a frame's lightness range is stretched for its edges
# Canny's (low, high) thresholds for the stretched lightness and for each chroma channel.
EdgeThresholds = tuple[tuple[int, int], tuple[int, int]]
EDGE_THRESHOLDS: EdgeThresholds = ((40, 100), (16, 40))
# Fainter ones, for a last look: a dark or dim face's seams are shallow dips once blurred.
FAINT_EDGE_THRESHOLDS: EdgeThresholds = ((30, 80), (12, 32))
FAINT_DENOISE = 1.0  # sigma of the faint look's further blur, in the pass's pixels
MIN_DENOISED_SIZE = 3  # the smallest face looked for with it
MAX_BLOCK_STICKERS = 3  # longest row of merged same-colour stickers taken apart
REGION_EDGE_PX = 2.0  # a small region's elongation errs by this over its side (px)

# 2. Lattice linking and fitting ---------------------------------------------------------------

_REGION_PITCH_RANGE = (0.95, 1.75)  # neighbour distance in units of the region's own side
# The most a step between linked regions, in the seed's lattice units, may miss a whole step
# along one lattice line: less than half a step, so that no step is taken for its neighbour.
_STEP_TOL = 0.3
MAX_NEIGHBOUR_AREA_RATIO = 1.8  # two neighbouring stickers' areas differ less than this
MAX_LATTICE_ASPECT = 1.3  # a sticker of this face, mapped into lattice units, is square
MAX_EXTRAPOLATED_ASPECT = 2.0  # ... and one where the lattice is extrapolated, roughly square
MAX_FILL_DIFFERENCE = 0.2  # bounding-box fill of a region lined up with a lattice cell
MIN_FOLD_BEND = 0.07  # rms miss of one homography over a bent lattice, in pitches
MAX_FOLD_RESIDUAL = 0.35  # each side of a fold fits its own homography this much better

# 3. Windows: the cube's own consistency -------------------------------------------------------

_MIN_PITCH = 7.0  # px in the working image: a smaller pitch is texture, not stickers
MIN_FACE_SHARE = 0.1  # smallest face side, as a share of the frame's short side
INFERRED_CONFIDENCE = 0.55  # the most a cell's confidence is when no sticker was seen there
FLAT_CELL_CONFIDENCE = 0.5  # below this a cell is not one flat colour (or is barely seen)
MAX_STICKER_SPREAD = 24.0  # interquartile range (Lab units) of a flat sticker's inner patch
MIN_FLAT_SHARE = 0.7  # share of a face's cells that must be flat (or glared)
MIN_STICKER_SHARE = 0.25  # share of a face's cells that must be flat, glared ones not counted
WHOLE_STICKER_SHARE = 0.7  # inner share of a cell one sticker covers (a sticker is 0.84+)
GLINT_ALIGNMENT = 0.7  # cosine between a pixel's change from its cell and the way to white
RING_SAME_COLOR = 12.0  # Lab distance (8-bit units) within which two flat cells are one colour

# Plastic and keys (cells showing the cube's body, a keyboard's gaps).
PLASTIC_LIGHTNESS = 0.6  # a cell darker than this share of the face's lightest one ...
PLASTIC_CHROMA = 10.0  # ... and greyer than this (Lab units, 8-bit) looks like plastic
BODY_CONTRAST = 1.5  # ... unless it shows a sticker this much lighter than the seams
LIGHT_BODY = 0.7  # (or darker, on seams this share of the lightest cell's lightness or more)
CLIPPED_LIGHTNESS = 250.0  # 8-bit Lab lightness of a cell the camera clipped to white
ONE_COLOR_SHARE = 0.8  # share of a keyboard's flat light cells (its keys) of one colour

# Seams between neighbouring cells.
SEAM_DIP = 0.12  # a seam is this much darker (relative) than each of its two cells
SEAM_FLOOR = 40.0  # grey level below which the dip is measured against this level instead
SEAM_GREY_DIP = 0.5  # ... or, no lighter than a coloured cell, this much greyer (relative)
SEAM_SHADE = SEAM_DIP * SEAM_FLOOR  # "no lighter" allows this much (8-bit lightness units)
MIN_SEAM_SHARE = 0.3  # share of cell pairs with a seam, below which two alternating colours
# are a board, not a cube (and a face found on faint edges is texture)
RINGING_SHARE = 0.06  # (board test) a seam is darker than its darker cell by this share of
# the two cells' difference in lightness

# The frame's edge, and a grid continuing past the window's border.
MAX_CELLS_OUTSIDE = 2  # a corner sticker and a neighbour of a large face the frame cuts
# A ring cell shows when a row of its middle's 5 x 5 samples does: a floor filling the frame
# shows its next tiles, cut by the frame's edge, past a window's side.
MIN_SHOWN_SHARE = 0.2
MAX_TILE_AREA_RATIO = 1.3  # a board's tiles are one size: the window's regions' within this

# The crossings cue (see :func:`~cubescan.scanner.grid.crossings._crossing_faces`).
CROSSING_SPACING = (3.0, 15.0)  # neighbouring crossings' distance, in the larger gap's sides
MAX_CROSSING_AREA_RATIO = 4.0  # two gaps' areas differ less than this
CROSSING_DIP = 0.3  # a crossing is this much darker (relative) than each of its four cells
CROSSING_SPOT = 0.1  # a crossing's darkest spot is looked for this far (cells) from it

# "Not a face": stickers cut along a side, edges off the grid's lines.
STICKER_CORNER = 0.3  # a sticker reaches this far from its cell's middle along both axes
MAX_EDGE_TURN = 12.0  # degrees the edges in a face's cells may turn from its grid's lines
EDGE_CELL_PX = 24  # pixels a cell in the block the edge directions are measured in

# 4. The search over scales --------------------------------------------------------------------

# The region-lattice cue (see :func:`~cubescan.scanner.grid.search._lattice_faces`).
REGION_WORK_SIDE = 320  # long side of its first pass, px
REGION_FINE_SIDE = 800  # long side of its second pass, for small faces in large frames
REGION_COARSE_SIDE = 200  # long side of its last pass, for large blurred faces
# Cells of a face of 3x3 or more that its last pass may leave unseen: a finger over one
# sticker and a glare spot washing out another. Of a 2x2's four that is half the face: it
# may leave one unseen, when the three seen hold as a face (see ``three_of_four_hold``).
COARSE_MAX_UNSEEN = 2
COARSE_MAX_UNSEEN_2X2 = 1
SMALL_STICKER_PITCH = 24.0  # px in a pass's image: below this, a finer pass may see more
THOROUGH_SIDES = (240, 280, 480, 560, 640)  # long sides of a thorough search's extra passes

# The quad cue ---------------------------------------------------------------------------------

_MIN_SIDE_FRACTION = 1 / 70  # smallest sticker side, as a fraction of the long side
_MAX_AREA_FRACTION = 1 / 9  # largest sticker area, as a fraction of the frame
_PITCH_RANGE = (1.0, 1.35)  # sticker pitch / side: no gap to wide gaps; a checkerboard is 1.41
_MIN_OCCUPANCY = 0.7  # share of the N x N cells where a sticker must be seen

# 5. Tracking ----------------------------------------------------------------------------------

TRACK_STICKER_PX = 16.0  # sticker side in the tracking path's image, px
# A 2x2's position is fitted to four stickers only: at 16 px its middle jitters by up to 5%
# of the face between frames of a face held still (rendered scanning videos), more than the
# session allows for "still" (4%); at 64 px, 1%.
TRACK_2X2_STICKER_PX = 64.0
FOLLOW_REACH = 0.35  # pitches a sticker may have moved since the last frame, to be followed
FOLLOW_TOLERANCE = 0.15  # pitches a followed sticker may lie off the refitted grid
FOLLOW_MAX_UNSEEN = 2  # cells of a followed face (of 3x3 or more) left without a sticker

# Every face in a frame (multi) --------------------------------------------------------------

MAX_FACES_IN_VIEW = 6  # the most faces looked for in one frame (two cubes' corners)
# Two faces share an edge when both ends of a side of one lie within this many cells of the
# ends of a side of the other: each face's grid is extrapolated from its stickers to its
# border, and a tilted face's misses by a fraction of a cell there.
LINK_TOLERANCE = 0.5
# The rest of a cube seen from a corner lies within this share of its faces' extent around
# them; it is looked for in a crop of that at the scale giving the best face's stickers
# CUBE_CROP_STICKER_PX (the faces turned away from the camera show narrower stickers).
CUBE_CROP_PAD = 1.1
CUBE_CROP_STICKER_PX = 24.0
CUBE_CROP_MAX_SCALE = 2.0  # the most such a crop is enlarged
# A face predicted beside one found, that shows no stickers in that crop, is looked for again
# in a crop of its own (its extent padded by OWN_CROP_PAD), scaled for its narrow side's
# cells, when that scale is finer than the shared crop's by more than OWN_CROP_FINER.
OWN_CROP_PAD = 0.4
OWN_CROP_FINER = 0.7
# A face turned 60 degrees or more away from the camera, seen obliquely, shows its stickers as
# parallelograms longer than a sticker region may be (``find_regions``' 2.6): around a cube
# already found, they are taken up to this.
TURNED_MAX_ELONGATION = 4.0
MIN_THIRD_FACE_PX = 6.0  # narrowest cell (px) of a corner's third face taken as predicted
