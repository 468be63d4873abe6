// A thin RAII layer over the HDF5 C API: handles that close themselves, and
// the few operations the dataset needs (1-D columns, scalar attributes,
// virtual datasets).  Every failure becomes a dama::Error naming the file and
// the object, never an HDF5 error stack on stderr.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <hdf5.h>

#include "error.hpp"

namespace dama::h5 {

// One HDF5 identifier and the function that releases it.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, H5I_INVALID_HID)), close_(o.close_) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, H5I_INVALID_HID);
      close_ = o.close_;
    }
    return *this;
  }
  ~Handle() { reset(); }
  void reset() {
    if (id_ >= 0 && close_) close_(id_);
    id_ = H5I_INVALID_HID;
  }
  hid_t release() { return std::exchange(id_, H5I_INVALID_HID); }  // the caller closes it now
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }

 private:
  hid_t id_ = H5I_INVALID_HID;
  herr_t (*close_)(hid_t) = nullptr;
};

// HDF5 prints its error stack by default; errors here are reported once, as
// dama::Error.  Called by every function that opens or creates a file.
void silence_error_stack();

// Throws dama::Error("<where>: <what>") when id < 0.
hid_t check(hid_t id, const std::string& where, const std::string& what);

class File {
 public:
  // A new file (truncating one that exists).
  static File create(const std::string& path);
  static File open_read(const std::string& path);
  const std::string& path() const { return path_; }
  hid_t id() const { return handle_; }
  void flush();
  void close();  // closes now, reporting a failure (the destructor cannot)

 private:
  File(Handle h, std::string path) : handle_(std::move(h)), path_(std::move(path)) {}
  Handle handle_;
  std::string path_;
};

Handle create_group(const File& f, const std::string& name);
bool has_object(const File& f, const std::string& name);

// The HDF5 type of a column element.
template <class T>
hid_t native_type() {
  if constexpr (std::is_same_v<T, std::uint8_t>) return H5T_NATIVE_UINT8;
  else if constexpr (std::is_same_v<T, std::int8_t>) return H5T_NATIVE_INT8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return H5T_NATIVE_UINT16;
  else if constexpr (std::is_same_v<T, std::int16_t>) return H5T_NATIVE_INT16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return H5T_NATIVE_UINT32;
  else if constexpr (std::is_same_v<T, std::int32_t>) return H5T_NATIVE_INT32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
  else if constexpr (std::is_same_v<T, std::int64_t>) return H5T_NATIVE_INT64;
  else if constexpr (std::is_same_v<T, float>) return H5T_NATIVE_FLOAT;
  else static_assert(sizeof(T) == 0, "no HDF5 type for this column");
}

// A fixed-length, null-padded ASCII string type of `width` bytes (what h5py
// reads as numpy 'S<width>' and pandas as bytes).
Handle string_type(std::size_t width);

// Writes a 1-D column: chunked, shuffled and deflated, extendible (unlimited
// maximum size), so a file can also be appended to.
void write_column_raw(const File& f, const std::string& name, hid_t type, const void* data, std::size_t count,
                      std::size_t element_size);
template <class T>
void write_column(const File& f, const std::string& name, const std::vector<T>& values) {
  write_column_raw(f, name, native_type<T>(), values.data(), values.size(), sizeof(T));
}
// Strings longer than `width` are refused (a dama::Error), never cut.
void write_string_column(const File& f, const std::string& name, const std::vector<std::string>& values,
                         std::size_t width);

// A column filled a range at a time: create_column sizes it (chunks and
// compression as write_column_raw chooses them for `count` elements), and
// write_column_range fills [first, first + count).  How a file far larger
// than memory is joined from its parts, one part at a time.
Handle create_column(const File& f, const std::string& name, hid_t type, std::size_t count, std::size_t element_size);
void write_column_range(const File& f, const std::string& name, hid_t type, std::size_t first, const void* data,
                        std::size_t count);
// Strings as `width`-byte fixed-length elements; one longer than `width` is
// refused (a dama::Error naming `f` and `name`).
std::vector<char> pack_strings(const File& f, const std::string& name, const std::vector<std::string>& values,
                               std::size_t width);

std::size_t column_length(const File& f, const std::string& name);
void read_column_raw(const File& f, const std::string& name, hid_t type, void* data, std::size_t count);
template <class T>
std::vector<T> read_column(const File& f, const std::string& name) {
  std::vector<T> values(column_length(f, name));
  read_column_raw(f, name, native_type<T>(), values.data(), values.size());
  return values;
}
std::vector<std::string> read_string_column(const File& f, const std::string& name);

// Scalar attributes of the root group.
void set_attribute(const File& f, const std::string& name, const std::string& value);
void set_attribute(const File& f, const std::string& name, std::int64_t value);
std::string string_attribute(const File& f, const std::string& name);
std::int64_t int_attribute(const File& f, const std::string& name);
bool has_attribute(const File& f, const std::string& name);
std::vector<std::string> attribute_names(const File& f);

// One source of a virtual column: `count` elements of dataset `name` in the
// file at `path` (stored as given: relative paths resolve against the
// directory of the file holding the virtual dataset).
struct VirtualSource {
  std::string path;
  std::size_t count;
};
// A 1-D virtual column: the sources one after another.
void write_virtual_column(const File& f, const std::string& name, hid_t type, const std::vector<VirtualSource>& sources);

}  // namespace dama::h5
