// Running one job on several machines: under `mpirun -n K`, rank r plays game
// indices i with i % K == r and writes its own shard, OUT.rank<r>.h5; rank 0
// then writes OUT as a master file joining the shards with HDF5 virtual
// datasets (relative paths, so the directory can be moved as a whole).
// Outside mpirun, MPI is never initialised and there is one rank.
#pragma once

#include <string>

namespace dama {

class MpiRanks {
 public:
  // Initialises MPI when the process was started by mpirun (OpenMPI or PMI
  // environment), once; finalised at exit.
  static MpiRanks from_environment();
  void barrier() const;
  int rank = 0;
  int size = 1;
};

std::string shard_path(const std::string& out, int rank);

// Writes `out` joining the shards of ranks 0..size-1.
void join_shards(const std::string& out, int size);

}  // namespace dama
