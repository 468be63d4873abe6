#include "hdf5.hpp"

#include <algorithm>
#include <cstring>

namespace dama::h5 {

namespace {

constexpr hsize_t kChunkElements = 16384;

std::string object_name(const File& f, const std::string& name) { return f.path() + ": " + name; }

Handle open_dataset(const File& f, const std::string& name) {
  return Handle(check(H5Dopen2(f.id(), name.c_str(), H5P_DEFAULT), f.path(), "no dataset '" + name + "'"),
                H5Dclose);
}

Handle column_space(std::size_t count) {
  const hsize_t dims[1] = {count};
  const hsize_t max_dims[1] = {H5S_UNLIMITED};
  return Handle(H5Screate_simple(1, dims, max_dims), H5Sclose);
}

Handle column_properties(std::size_t count, std::size_t element_size) {
  Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  // Chunks of about 64 KiB at most, and not larger than a small column needs.
  const hsize_t by_size = std::max<hsize_t>(1, 65536 / std::max<std::size_t>(1, element_size));
  const hsize_t chunk[1] = {std::max<hsize_t>(1, std::min<hsize_t>({kChunkElements, by_size, count ? count : 1}))};
  H5Pset_chunk(plist, 1, chunk);
  H5Pset_shuffle(plist);
  H5Pset_deflate(plist, 4);
  return plist;
}

Handle root(const File& f) {
  return Handle(check(H5Gopen2(f.id(), "/", H5P_DEFAULT), f.path(), "cannot open the root group"), H5Gclose);
}

}  // namespace

void silence_error_stack() {
  static const bool done = [] {
    // HDF5 1.10 crashes in its exit-time clean-up when a file failed to close
    // (a full disk): with no clean-up at exit, the error stays an error.
    // Every file is closed explicitly before then anyway.
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

hid_t check(hid_t id, const std::string& where, const std::string& what) {
  if (id < 0) throw Error(where + ": " + what);
  return id;
}

File File::create(const std::string& path) {
  silence_error_stack();
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  check(id, path, "cannot create the file (is the directory there and writable?)");
  return File(Handle(id, H5Fclose), path);
}

File File::open_read(const std::string& path) {
  silence_error_stack();
  if (H5Fis_hdf5(path.c_str()) <= 0)
    throw Error(path + ": not a readable HDF5 file (missing, unreadable or corrupt)");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  check(id, path, "cannot open the file");
  return File(Handle(id, H5Fclose), path);
}

void File::flush() {
  if (H5Fflush(handle_, H5F_SCOPE_LOCAL) < 0) throw Error(path_ + ": cannot flush the file (disk full?)");
}

void File::close() {
  if (handle_.get() < 0) return;
  const herr_t status = H5Fclose(handle_.release());
  if (status < 0) throw Error(path_ + ": cannot close the file (disk full?)");
}

Handle create_group(const File& f, const std::string& name) {
  return Handle(check(H5Gcreate2(f.id(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), f.path(),
                      "cannot create group '" + name + "'"),
                H5Gclose);
}

bool has_object(const File& f, const std::string& name) { return H5Lexists(f.id(), name.c_str(), H5P_DEFAULT) > 0; }

Handle string_type(std::size_t width) {
  Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type, std::max<std::size_t>(1, width));
  H5Tset_strpad(type, H5T_STR_NULLPAD);
  return type;
}

Handle create_column(const File& f, const std::string& name, hid_t type, std::size_t count, std::size_t element_size) {
  Handle space = column_space(count);
  Handle plist = column_properties(count, element_size);
  return Handle(check(H5Dcreate2(f.id(), name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT), f.path(),
                      "cannot create dataset '" + name + "'"),
                H5Dclose);
}

void write_column_raw(const File& f, const std::string& name, hid_t type, const void* data, std::size_t count,
                      std::size_t element_size) {
  Handle dataset = create_column(f, name, type, count, element_size);
  if (count > 0 && H5Dwrite(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw Error(object_name(f, name) + ": cannot write (disk full?)");
}

void write_column_range(const File& f, const std::string& name, hid_t type, std::size_t first, const void* data,
                        std::size_t count) {
  if (count == 0) return;
  Handle dataset = open_dataset(f, name);
  Handle file_space(H5Dget_space(dataset), H5Sclose);
  const hsize_t start[1] = {first}, size[1] = {count};
  Handle memory_space(H5Screate_simple(1, size, nullptr), H5Sclose);
  if (H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, size, nullptr) < 0 ||
      H5Sselect_valid(file_space) <= 0)
    throw Error(object_name(f, name) + ": rows " + std::to_string(first) + ".." + std::to_string(first + count) +
                " lie outside the column");
  if (H5Dwrite(dataset, type, memory_space, file_space, H5P_DEFAULT, data) < 0)
    throw Error(object_name(f, name) + ": cannot write (disk full?)");
}

std::vector<char> pack_strings(const File& f, const std::string& name, const std::vector<std::string>& values,
                               std::size_t width) {
  std::vector<char> packed(values.size() * width, '\0');
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i].size() > width)
      throw Error(object_name(f, name) + ": value '" + values[i] + "' is longer than " + std::to_string(width) +
                  " characters");
    std::memcpy(packed.data() + i * width, values[i].data(), values[i].size());
  }
  return packed;
}

void write_string_column(const File& f, const std::string& name, const std::vector<std::string>& values,
                         std::size_t width) {
  const std::vector<char> packed = pack_strings(f, name, values, width);
  Handle type = string_type(width);
  write_column_raw(f, name, type, packed.data(), values.size(), width);
}

std::size_t column_length(const File& f, const std::string& name) {
  Handle dataset = open_dataset(f, name);
  Handle space(H5Dget_space(dataset), H5Sclose);
  if (H5Sget_simple_extent_ndims(space) != 1) throw Error(object_name(f, name) + ": not a 1-D column");
  hsize_t dims[1] = {0};
  H5Sget_simple_extent_dims(space, dims, nullptr);
  return static_cast<std::size_t>(dims[0]);
}

void read_column_raw(const File& f, const std::string& name, hid_t type, void* data, std::size_t count) {
  Handle dataset = open_dataset(f, name);
  Handle file_type(H5Dget_type(dataset), H5Tclose);
  if (H5Tget_class(file_type) != H5Tget_class(type))
    throw Error(object_name(f, name) + ": unexpected element type");
  if (count > 0 && H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    throw Error(object_name(f, name) + ": cannot read (corrupt file, or a part file of a virtual dataset is missing)");
}

std::vector<std::string> read_string_column(const File& f, const std::string& name) {
  Handle dataset = open_dataset(f, name);
  Handle file_type(H5Dget_type(dataset), H5Tclose);
  if (H5Tget_class(file_type) != H5T_STRING || H5Tis_variable_str(file_type) > 0)
    throw Error(object_name(f, name) + ": not a fixed-length string column");
  const std::size_t width = H5Tget_size(file_type);
  const std::size_t count = column_length(f, name);
  std::vector<char> packed(count * width);
  Handle type = string_type(width);
  if (count > 0 && H5Dread(dataset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
    throw Error(object_name(f, name) + ": cannot read (corrupt file, or a part file of a virtual dataset is missing)");
  std::vector<std::string> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    const char* begin = packed.data() + i * width;
    values[i].assign(begin, strnlen(begin, width));
  }
  return values;
}

void set_attribute(const File& f, const std::string& name, const std::string& value) {
  Handle group = root(f);
  Handle type = string_type(value.size());
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(check(H5Acreate2(group, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), f.path(),
                         "cannot create attribute '" + name + "'"),
                   H5Aclose);
  // An empty string is stored as one NUL byte (HDF5 has no zero-size strings).
  const std::string stored = value.empty() ? std::string(1, '\0') : value;
  if (H5Awrite(attribute, type, stored.data()) < 0) throw Error(object_name(f, name) + ": cannot write attribute");
}

void set_attribute(const File& f, const std::string& name, std::int64_t value) {
  Handle group = root(f);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(check(H5Acreate2(group, name.c_str(), H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT),
                         f.path(), "cannot create attribute '" + name + "'"),
                   H5Aclose);
  if (H5Awrite(attribute, H5T_NATIVE_INT64, &value) < 0) throw Error(object_name(f, name) + ": cannot write attribute");
}

bool has_attribute(const File& f, const std::string& name) { return H5Aexists(f.id(), name.c_str()) > 0; }

namespace {
Handle open_attribute(const File& f, const std::string& name) {
  if (!has_attribute(f, name)) throw Error(f.path() + ": no attribute '" + name + "' (not a dama dataset?)");
  return Handle(check(H5Aopen(f.id(), name.c_str(), H5P_DEFAULT), f.path(), "cannot open attribute '" + name + "'"),
                H5Aclose);
}
}  // namespace

std::string string_attribute(const File& f, const std::string& name) {
  Handle attribute = open_attribute(f, name);
  Handle file_type(H5Aget_type(attribute), H5Tclose);
  if (H5Tget_class(file_type) != H5T_STRING || H5Tis_variable_str(file_type) > 0)
    throw Error(object_name(f, name) + ": attribute is not a fixed-length string");
  const std::size_t width = H5Tget_size(file_type);
  std::string value(width, '\0');
  Handle type = string_type(width);
  if (H5Aread(attribute, type, value.data()) < 0) throw Error(object_name(f, name) + ": cannot read attribute");
  value.resize(strnlen(value.data(), width));
  return value;
}

std::int64_t int_attribute(const File& f, const std::string& name) {
  Handle attribute = open_attribute(f, name);
  Handle file_type(H5Aget_type(attribute), H5Tclose);
  if (H5Tget_class(file_type) != H5T_INTEGER) throw Error(object_name(f, name) + ": attribute is not an integer");
  std::int64_t value = 0;
  if (H5Aread(attribute, H5T_NATIVE_INT64, &value) < 0) throw Error(object_name(f, name) + ": cannot read attribute");
  return value;
}

std::vector<std::string> attribute_names(const File& f) {
  H5O_info_t info;
  if (H5Oget_info2(f.id(), &info, H5O_INFO_NUM_ATTRS) < 0) throw Error(f.path() + ": cannot list attributes");
  std::vector<std::string> names;
  for (hsize_t i = 0; i < info.num_attrs; ++i) {
    char buffer[256];
    const ssize_t n = H5Aget_name_by_idx(f.id(), ".", H5_INDEX_NAME, H5_ITER_INC, i, buffer, sizeof buffer, H5P_DEFAULT);
    if (n > 0) names.emplace_back(buffer, std::min<std::size_t>(static_cast<std::size_t>(n), sizeof buffer - 1));
  }
  return names;
}

void write_virtual_column(const File& f, const std::string& name, hid_t type, const std::vector<VirtualSource>& sources) {
  hsize_t total = 0;
  for (const auto& s : sources) total += s.count;
  const hsize_t dims[1] = {total};
  Handle space(H5Screate_simple(1, dims, nullptr), H5Sclose);
  Handle plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  hsize_t offset = 0;
  for (const auto& s : sources) {
    if (s.count == 0) continue;
    const hsize_t start[1] = {offset}, count[1] = {s.count};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle source_space(H5Screate_simple(1, count, nullptr), H5Sclose);
    if (H5Pset_virtual(plist, space, s.path.c_str(), name.c_str(), source_space) < 0)
      throw Error(object_name(f, name) + ": cannot map virtual source " + s.path);
    offset += s.count;
  }
  H5Sselect_all(space);
  Handle dataset(check(H5Dcreate2(f.id(), name.c_str(), type, space, H5P_DEFAULT, plist, H5P_DEFAULT), f.path(),
                       "cannot create virtual dataset '" + name + "'"),
                 H5Dclose);
}

}  // namespace dama::h5
