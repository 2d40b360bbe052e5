// cupp::dtype: built-in dtype properties, void and structured layouts, NumPy descriptor
// parsing and printing, finfo and iinfo. (First minimal version: built-in dtypes only.)
#include "cupp/dtype.hpp"

#include <ostream>

#include "cupp/errors.hpp"
#include "tables.hpp"

namespace cupp {

namespace detail {
struct composite_layout {
  std::size_t itemsize = 0;
  std::size_t alignment = 1;
  std::vector<field> fields;
};
}  // namespace detail

void dtype::throw_not_builtin() {
  throw ValueError("cupp::dtype(type_id): void and structured dtypes need dtype::void_ or dtype::structured");
}

std::size_t dtype::composite_itemsize() const noexcept { return layout_ ? layout_->itemsize : 0; }

std::size_t dtype::alignment() const noexcept {
  return is_builtin() ? detail::info(id_).alignment : (layout_ ? layout_->alignment : 1);
}

char dtype::char_code() const noexcept { return is_builtin() ? detail::info(id_).char_code : 'V'; }

std::string dtype::name() const {
  if (is_builtin()) return std::string(detail::info(id_).name);
  return "V" + std::to_string(itemsize());
}

std::string dtype::descr() const {
  if (is_builtin()) return std::string(detail::info(id_).descr);
  return "|V" + std::to_string(itemsize());
}

std::span<const field> dtype::fields() const noexcept {
  if (!layout_) return {};
  return layout_->fields;
}

dtype dtype::void_(std::size_t itemsize) {
  if (itemsize == 0) throw ValueError("void dtype needs an itemsize of at least 1");
  dtype d;
  d.id_ = type_id::void_;
  auto layout = std::make_shared<detail::composite_layout>();
  layout->itemsize = itemsize;
  d.layout_ = std::move(layout);
  return d;
}

dtype dtype::structured(std::vector<field>, std::size_t, bool) {
  throw ValueError("structured dtypes: not implemented yet");
}

dtype dtype::structured(std::span<const std::pair<std::string, dtype>>, bool) {
  throw ValueError("structured dtypes: not implemented yet");
}

dtype dtype::parse(std::string_view text) {
  for (int i = 0; i < n_builtin_types; ++i) {
    const auto& info = detail::builtin_dtypes[i];
    if (text == info.name || text == info.descr ||
        (text.size() == 1 && text[0] == info.char_code))
      return dtype(static_cast<type_id>(i));
  }
  throw ValueError("data type '" + std::string(text) + "' not understood");
}

bool operator==(const dtype& a, const dtype& b) noexcept {
  if (a.id_ != b.id_) return false;
  if (a.is_builtin()) return true;
  return a.itemsize() == b.itemsize();
}

parsed_descr parse_descr(std::string_view descr) { return {dtype::parse(descr), false}; }

std::ostream& operator<<(std::ostream& os, const dtype& d) { return os << d.name(); }

finfo_t finfo(dtype d) {
  throw ValueError("finfo: not implemented yet for " + d.name());
}

iinfo_t iinfo(dtype d) {
  throw ValueError("iinfo: not implemented yet for " + d.name());
}

}  // namespace cupp
