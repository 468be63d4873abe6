#include "mpi_ranks.hpp"

// The C API only: the deprecated C++ bindings would need libmpi_cxx.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <cstdlib>
#include <filesystem>

#include "dataset_io.hpp"
#include "error.hpp"

namespace dama {

namespace {

bool started_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr ||
         std::getenv("PMIX_RANK") != nullptr;
}

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace

MpiRanks MpiRanks::from_environment() {
  MpiRanks ranks;
  if (!started_by_mpirun()) return ranks;
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
      throw Error("MPI: cannot initialise");
    std::atexit(finalize_at_exit);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &ranks.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks.size);
  return ranks;
}

void MpiRanks::barrier() const {
  if (size > 1) MPI_Barrier(MPI_COMM_WORLD);
}

std::string shard_path(const std::string& out, int rank) {
  std::filesystem::path p(out);
  const std::string stem = p.stem().string(), extension = p.extension().string();
  return (p.parent_path() / (stem + ".rank" + std::to_string(rank) + extension)).string();
}

void join_shards(const std::string& out, int size) {
  std::vector<PartCounts> parts;
  for (int rank = 0; rank < size; ++rank) {
    const std::string shard = shard_path(out, rank);
    parts.push_back(count_rows(shard, std::filesystem::path(shard).filename().string()));
  }
  DatasetMeta meta = read_meta(shard_path(out, 0));
  write_master_file(out, meta, parts);
}

}  // namespace dama
