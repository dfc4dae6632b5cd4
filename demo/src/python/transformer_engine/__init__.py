"""A stand-in for Transformer Engine's Python package: finds its native part in wheel_lib."""
import os

WHEEL_LIB = os.path.join(os.path.dirname(__file__), "wheel_lib")


def answer():
    return 42
