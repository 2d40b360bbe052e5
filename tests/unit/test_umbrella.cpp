// cupp/cupp.hpp includes every public header of the runtime (runtime/include/cupp/**.hpp), and
// compiles on its own: a header added without joining the umbrella fails here.
#include "cupp/cupp.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace cupp {
namespace {

TEST(Umbrella, IncludesEveryPublicHeader) {
  const std::filesystem::path include_dir = std::filesystem::path(CUPP_SOURCE_DIR) / "runtime" / "include";
  std::ifstream umbrella(include_dir / "cupp" / "cupp.hpp");
  ASSERT_TRUE(umbrella) << "runtime/include/cupp/cupp.hpp is missing";
  std::stringstream text;
  text << umbrella.rdbuf();
  std::set<std::string> included;
  const std::string s = text.str();
  const std::regex include_line(R"(#include "(cupp/[^"]+\.hpp)\")");
  for (std::sregex_iterator it(s.begin(), s.end(), include_line), end; it != end; ++it) included.insert((*it)[1]);
  int headers = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(include_dir / "cupp")) {
    if (entry.path().extension() != ".hpp") continue;
    const std::string rel = std::filesystem::relative(entry.path(), include_dir).generic_string();
    if (rel == "cupp/cupp.hpp") continue;
    ++headers;
    EXPECT_TRUE(included.count(rel)) << rel << " is not included by cupp/cupp.hpp";
  }
  EXPECT_GT(headers, 20);
  // Something from a few of them, through the umbrella alone.
  EXPECT_EQ(result_type(int8, float16), float16);
  EXPECT_FALSE(std::string(routine_info{"x", "x()", "y"}.name).empty());
}

}  // namespace
}  // namespace cupp
