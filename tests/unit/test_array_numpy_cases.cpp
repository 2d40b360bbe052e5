// Views checked against NumPy 2.5.2 (tests/conformance/numpy-array-cases.json.gz, made by
// make_array_cases.py on the GPU machine): basic indexing (shape, byte strides, offset, values,
// or the error class), reshape (view or copy, values, errors) and broadcast_shapes, on int64
// arange sources that are plain, transposed or reversed. Pure host layout: no GPU needed.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>
#include <zlib.h>

#include <array>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "array/layout.hpp"
#include "conformance.hpp"
#include "cupp/errors.hpp"

namespace cupp {
namespace {

constexpr std::int64_t kItem = 8;  // int64

YAML::Node load_cases() {
  static const YAML::Node cases = [] {
    const std::string path = test::source_path("tests/conformance/numpy-array-cases.json.gz");
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) throw std::runtime_error("cannot open " + path);
    std::string text;
    std::array<char, 65536> buf{};
    for (int n; (n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0;) text.append(buf.data(), n);
    gzclose(f);
    return YAML::Load(text);
  }();
  return cases;
}

shape_t ints(const YAML::Node& n) {
  shape_t v;
  for (const auto& x : n) v.push_back(x.as<std::int64_t>());
  return v;
}

// The source view of an arange buffer: its layout relative to the buffer's element 0.
layout::strided make_source(const shape_t& shape, const std::string& kind) {
  layout::strided s{shape, layout::c_strides(shape, kItem), 0};
  const std::int64_t size = std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
  if (kind == "transposed") {
    std::reverse(s.shape.begin(), s.shape.end());
    std::reverse(s.strides.begin(), s.strides.end());
  } else if (kind == "reversed" && !shape.empty() && size > 0) {
    s.offset = (shape[0] - 1) * s.strides[0];
    s.strides[0] = -s.strides[0];
  }
  return s;
}

// The values (arange: element value == its index in the buffer) of a layout, in C order.
std::vector<std::int64_t> values_of(const layout::strided& a) {
  std::vector<std::int64_t> out;
  layout::for_each_offset(a.shape, a.strides, [&](std::int64_t off) { out.push_back((a.offset + off) / kItem); });
  return out;
}

index_item item_of(const YAML::Node& n) {
  if (n.IsScalar()) return n.as<std::string>() == "newaxis" ? index_item(newaxis) : index_item(ellipsis);
  if (n["int"]) return n["int"].as<std::int64_t>();
  const YAML::Node s = n["slice"];
  auto bound = [](const YAML::Node& b) { return b.IsNull() ? std::optional<std::int64_t>() : b.as<std::int64_t>(); };
  return slice(bound(s[0]), bound(s[1]), bound(s[2]));
}

std::string error_class(const std::function<void()>& f) {
  try {
    f();
  } catch (const IndexError&) {
    return "IndexError";
  } catch (const AxisError&) {
    return "AxisError";
  } catch (const ValueError&) {
    return "ValueError";
  } catch (const TypeError&) {
    return "TypeError";
  }
  return "";
}

TEST(ArrayNumPyCases, BasicIndexing) {
  const YAML::Node cases = load_cases()["index"];
  ASSERT_GT(cases.size(), 1000u);
  int checked = 0;
  for (const auto& c : cases) {
    const layout::strided src = make_source(ints(c["shape"]), c["source"].as<std::string>());
    std::vector<index_item> items;
    for (const auto& it : c["index"]) items.push_back(item_of(it));
    const std::string label = YAML::Dump(c["index"]) + " on " + YAML::Dump(c["shape"]) + " " + c["source"].as<std::string>();
    if (c["error"]) {
      EXPECT_EQ(error_class([&] { layout::index(src, kItem, items); }), c["error"].as<std::string>()) << label;
    } else {
      layout::strided r;
      ASSERT_NO_THROW(r = layout::index(src, kItem, items)) << label;
      EXPECT_EQ(r.shape, ints(c["result_shape"])) << label;
      EXPECT_EQ(values_of(r), ints(c["values"])) << label;
      const std::int64_t size = std::accumulate(r.shape.begin(), r.shape.end(), std::int64_t{1}, std::multiplies<>());
      if (!r.shape.empty() && size > 0) {  // NumPy gives scalars for 0-d results: no layout to compare
        EXPECT_EQ(r.strides, ints(c["result_strides"])) << label;
        EXPECT_EQ(r.offset - src.offset, c["result_offset"].as<std::int64_t>()) << label;
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, static_cast<int>(cases.size()));
}

TEST(ArrayNumPyCases, ReshapeViewOrCopy) {
  const YAML::Node cases = load_cases()["reshape"];
  ASSERT_GT(cases.size(), 500u);
  for (const auto& c : cases) {
    const layout::strided src = make_source(ints(c["shape"]), c["source"].as<std::string>());
    const shape_t requested = ints(c["new_shape"]);
    const std::string label = YAML::Dump(c["shape"]) + " " + c["source"].as<std::string>() + " -> " + YAML::Dump(c["new_shape"]);
    const std::int64_t size = std::accumulate(src.shape.begin(), src.shape.end(), std::int64_t{1}, std::multiplies<>());
    if (c["error"]) {
      EXPECT_EQ(error_class([&] { layout::infer_shape(requested, size, src.shape); }), c["error"].as<std::string>()) << label;
      continue;
    }
    const shape_t shape = layout::infer_shape(requested, size, src.shape);
    EXPECT_EQ(shape, ints(c["result_shape"])) << label;
    const auto strides = layout::reshape_strides(src.shape, src.strides, shape, kItem);
    const bool view = strides.has_value() || size == 0;
    EXPECT_EQ(view, c["is_view"].as<bool>()) << label;
    if (strides) EXPECT_EQ(values_of({shape, *strides, src.offset}), ints(c["values"])) << label;
    else EXPECT_EQ(values_of(src), ints(c["values"])) << label;  // a copy takes the source in C order
  }
}

TEST(ArrayNumPyCases, BroadcastShapes) {
  const YAML::Node cases = load_cases()["broadcast"];
  ASSERT_GT(cases.size(), 100u);
  for (const auto& c : cases) {
    std::vector<shape_t> shapes;
    for (const auto& s : c["shapes"]) shapes.push_back(ints(s));
    const std::string label = YAML::Dump(c["shapes"]);
    if (c["error"]) {
      try {
        layout::broadcast_shapes(shapes);
        ADD_FAILURE() << "no error for " << label;
      } catch (const ValueError& e) {
        // Like NumPy's, the message names the two shapes that do not match.
        const std::string msg = e.what();
        std::set<std::string> named;
        for (const auto& s : shapes)
          if (msg.find("shape " + layout::tuple_string(s)) != std::string::npos) named.insert(layout::tuple_string(s));
        EXPECT_EQ(named.size(), 2u) << msg;
      }
    } else {
      EXPECT_EQ(layout::broadcast_shapes(shapes), ints(c["result_shape"])) << label;
    }
  }
}

}  // namespace
}  // namespace cupp
