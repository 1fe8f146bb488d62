#!/usr/bin/env bash
# Installs the Debian packages dse needs (only those missing), then
# configures and builds it into build/.  Safe to run again: it only does
# what is left to do.  Usage: scripts/bootstrap.sh [cmake options...]
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/install-missing.sh
install_missing bootstrap build-essential cmake pkg-config libisl-dev \
	libopenmpi-dev openmpi-bin libmpich-dev mpich libhdf5-dev hdf5-tools \
	libcmocka-dev \
	python3-h5py python3-matplotlib python3-pandas \
	libprotobuf-c-dev protobuf-c-compiler libonnx-dev python3-onnx \
	strace libclang-19-dev

# Open MPI by name: with MPICH installed too (scripts/mpich.sh builds the
# MPI tests against it), Debian's mpicc and mpirun alternatives prefer
# Open MPI (priority 50 against MPICH's 40) unless someone chose MPICH by
# hand, and the build would follow them.  A
# cmake option of the caller's own (-DMPI_C_COMPILER=...) comes later and
# wins.
mpi=()
if [ -x /usr/bin/mpicc.openmpi ] && [ -x /usr/bin/mpirun.openmpi ]; then
	mpi=(-DMPI_C_COMPILER=/usr/bin/mpicc.openmpi
		-DMPIEXEC_EXECUTABLE=/usr/bin/mpirun.openmpi)
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${mpi[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
echo "bootstrap: built build/dse" >&2
