"""Build the compiled hot paths (``src/bordspel/_native/*.pyx``) as C extensions.

Every extension is optional: where no C compiler is there, the build warns and the package
falls back to the pure-Python reference modules (see ``bordspel._native``).
"""

from __future__ import annotations

import sys
from glob import glob
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False}


class OptionalBuildExt(build_ext):
    """Build every extension it can; warn about (and skip) any that does not compile."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all
            self._warn(f"C extensions not built ({error}); using the pure-Python modules")

    def build_extension(self, ext: Extension) -> None:
        try:
            from Cython.Build import cythonize

            (compiled,) = cythonize([ext], language_level=3, compiler_directives=DIRECTIVES)
            ext.sources = compiled.sources  # the generated C file, on setuptools' own Extension
            super().build_extension(ext)
        except Exception as error:  # Cython missing, a module Cython or the C compiler refuses
            self._warn(f"{ext.name} not built ({error}); using its pure-Python module")

    @staticmethod
    def _warn(message: str) -> None:
        print(f"WARNING: {message}", file=sys.stderr)


def extensions() -> list[Extension]:
    """One extension per ``.pyx`` file; each is cythonized when it is built (see above)."""
    return [
        Extension(f"bordspel._native.{Path(source).stem}", [source], extra_compile_args=["-O3"])
        for source in sorted(glob("src/bordspel/_native/*.pyx"))
    ]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
