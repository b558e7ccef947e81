"""Build the compiled hot paths as C extensions: ``src/bordspel/_native/*.pyx``, and the
pure-Python modules listed in :data:`COMPILED_TWINS`, compiled from their own source.

Every extension is optional: where no C compiler is there, the build warns and the package
falls back to the pure-Python reference modules (see ``bordspel._native``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from glob import glob
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

DIRECTIVES = {"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False}


class OptionalBuildExt(build_ext):
    """Build every extension it can; warn about (and skip) any that does not compile. Cython runs
    first, one module at a time; the C compiler then runs on as many cores as there are."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self.extensions = [ext for ext in self.extensions if self._cythonized(ext)]
        try:
            super().run()
        except Exception as error:  # no compiler at all
            self._warn(f"C extensions not built ({error}); using the pure-Python modules")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # the C compiler refuses it
            self._warn(f"{ext.name} not built ({error}); using its pure-Python module")

    def _cythonized(self, ext: Extension) -> bool:
        """Whether ``ext``'s sources became C (in place: the generated file on setuptools' own
        Extension)."""
        try:
            from Cython.Build import cythonize

            (compiled,) = cythonize([ext], language_level=3, compiler_directives=DIRECTIVES)
        except Exception as error:  # Cython missing, or a module it refuses
            self._warn(f"{ext.name} not built ({error}); using its pure-Python module")
            return False
        ext.sources = compiled.sources
        return True

    @staticmethod
    def _warn(message: str) -> None:
        print(f"WARNING: {message}", file=sys.stderr)


COMPILED_TWINS = {
    "santorini_gods": "src/bordspel/games/santorini/gods",
    "santorini_gods_search": "src/bordspel/games/santorini/gods_search",
    "santorini_gods_play": "src/bordspel/games/santorini/gods_play",
    "santorini_generator": "src/bordspel/games/santorini/generator",
}
"""Compiled modules built from a pure-Python module (the rules' one statement), with the C types
of its ``.pxd``: ``bordspel._native.<name>`` from ``<path>.py``."""


def twin_source(name: str, path: str) -> str:
    """A copy of ``path``'s ``.py`` and ``.pxd`` as ``bordspel/_native/<name>`` in the build folder
    (Cython names a module, and finds its ``.pxd``, by its file's place among packages); the copy
    ends with the SHA-256 of the source, by which ``bordspel._native.twin`` knows it is up to date."""
    package = Path("build", "twins", "bordspel", "_native")
    package.mkdir(parents=True, exist_ok=True)
    for folder in (package.parent, package):
        (folder / "__init__.py").touch()
    shutil.copyfile(path + ".pxd", package / (name + ".pxd"))
    source = Path(path + ".py").read_bytes()
    digest = hashlib.sha256(source).hexdigest()
    (package / (name + ".py")).write_bytes(source + f'\nSOURCE_DIGEST = "{digest}"\n'.encode())
    return str(package / (name + ".py"))


def extensions() -> list[Extension]:
    """One extension per ``.pyx`` file and per compiled twin; each is cythonized when it is built
    (see above)."""
    sources = [(Path(source).stem, source) for source in sorted(glob("src/bordspel/_native/*.pyx"))]
    sources += [(name, twin_source(name, path)) for name, path in COMPILED_TWINS.items()]
    return [Extension(f"bordspel._native.{name}", [src], extra_compile_args=["-O3"]) for name, src in sources]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
