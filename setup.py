"""The build behind pyproject.toml: the extension comes from the project's own CMake build.

build_ext configures the project in the build temp (Release; no tests, benchmarks or examples
built), builds only the `timef_python` target (the extension and what it links) and installs
the CMake component `python_wheel` (python/CMakeLists.txt): the extension, libtimef and DuckDB's
libduckdb.so side by side in timef/ with $ORIGIN run paths. The pure-Python files of
python/timef are setuptools' own part of the package.

Environment:
  TIMEF_CMAKE_BUILD_DIR  an already configured build directory of the project to build in
                         instead (e.g. `build`); its extension must be for this interpreter
  TIMEF_CMAKE_ARGS       extra arguments to the fresh configure (shell-quoted)
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: the CPU count)
  TIMEF_PY_BUILD_DIR     setuptools' build directory (default build-pip/ in the source tree)
"""

import os
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import SetupError

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        found = re.search(r"project\(timef VERSION ([0-9.]+)", f.read())
    if found is None:
        raise SetupError("setup.py: no 'project(timef VERSION x.y.z' in CMakeLists.txt")
    return found.group(1)


def run(command):
    print("setup.py:", shlex.join(command), flush=True)
    subprocess.run(command, check=True)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        target = os.path.abspath(self.get_ext_fullpath(ext.name))
        temp = os.path.abspath(self.build_temp)
        build_dir = os.environ.get("TIMEF_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = os.path.abspath(build_dir)
            if not os.path.isfile(os.path.join(build_dir, "CMakeCache.txt")):
                raise SetupError(f"TIMEF_CMAKE_BUILD_DIR={build_dir} is not a configured CMake "
                                 "build directory (no CMakeCache.txt)")
        else:
            build_dir = os.path.join(temp, "cmake")
            run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                 "-DTIMEF_BUILD_TESTS=OFF", "-DTIMEF_BUILD_BENCH=OFF", "-DTIMEF_BUILD_PYTHON=ON",
                 f"-DTIMEF_PYTHON_EXECUTABLE={sys.executable}",
                 *shlex.split(os.environ.get("TIMEF_CMAKE_ARGS", ""))])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        run(["cmake", "--build", build_dir, "--target", "timef_python", "-j", jobs])

        stage = os.path.join(temp, "wheel-stage")
        shutil.rmtree(stage, ignore_errors=True)
        run(["cmake", "--install", build_dir, "--component", "python_wheel", "--prefix", stage,
             "--strip"])
        staged = os.path.join(stage, "timef")
        names = sorted(os.listdir(staged))
        if os.path.basename(target) not in names:
            raise SetupError(
                f"the CMake build in {build_dir} made {[n for n in names if n.startswith('_')]}, "
                f"not {os.path.basename(target)}: it is for another Python than {sys.executable} "
                "(configure it with -DTIMEF_PYTHON_EXECUTABLE, or leave TIMEF_CMAKE_BUILD_DIR "
                "unset)")
        # Wheels hold no symbolic links: a library's SONAME link becomes the file itself, and
        # the versioned file it points to is left out.
        linked = {os.path.basename(os.path.realpath(os.path.join(staged, n)))
                  for n in names if os.path.islink(os.path.join(staged, n))}
        os.makedirs(os.path.dirname(target), exist_ok=True)
        for name in names:
            if name not in linked or os.path.islink(os.path.join(staged, name)):
                shutil.copy2(os.path.join(staged, name), os.path.join(os.path.dirname(target),
                                                                      name))


build_base = os.path.abspath(os.environ.get("TIMEF_PY_BUILD_DIR") or os.path.join(ROOT,
                                                                                  "build-pip"))
os.makedirs(build_base, exist_ok=True)

setup(
    version=project_version(),
    packages=["timef"],
    package_dir={"timef": "python/timef"},
    ext_modules=[CMakeExtension("timef._timef")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # Not build/: that is the CMake build directory of `make build`.
    options={"build": {"build_base": build_base}, "egg_info": {"egg_base": build_base}},
)
