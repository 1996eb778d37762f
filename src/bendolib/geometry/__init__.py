"""Board geometries: the classic straight line, the curved hexagonal lattice and the triangles."""

from bendolib.geometry.base import Geometry
from bendolib.geometry.bend import BEND, BendGeometry
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.chain import ChainGeometry
from bendolib.geometry.lattice import Position
from bendolib.geometry.straight import STRAIGHT_LINE, StraightGeometry
from bendolib.geometry.triangles import (
    TRIANGLES_GEOMETRY,
    OpenEdge,
    TriangleBoard,
    TriangleGeometry,
    TrianglePlacement,
)
from bendolib.geometry.trilattice import Cell

__all__ = [
    "BEND",
    "STRAIGHT_LINE",
    "TRIANGLES_GEOMETRY",
    "BendGeometry",
    "Board",
    "Cell",
    "ChainGeometry",
    "End",
    "Geometry",
    "OpenEdge",
    "Placement",
    "Position",
    "StraightGeometry",
    "TriangleBoard",
    "TriangleGeometry",
    "TrianglePlacement",
]
