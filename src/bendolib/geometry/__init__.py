"""Board geometries: the curved hexagonal lattice and the classic straight line."""

from bendolib.geometry.base import Geometry
from bendolib.geometry.bend import BEND, BendGeometry
from bendolib.geometry.board import Board, End, Placement
from bendolib.geometry.lattice import Position
from bendolib.geometry.straight import STRAIGHT_LINE, StraightGeometry

__all__ = [
    "BEND",
    "STRAIGHT_LINE",
    "BendGeometry",
    "Board",
    "End",
    "Geometry",
    "Placement",
    "Position",
    "StraightGeometry",
]
