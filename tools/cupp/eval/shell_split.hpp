// cupp eval --batch: splits one line into arguments the way a POSIX shell would, without
// expansions: blanks separate words; 'single quotes' keep everything; "double quotes" keep
// everything but \" \\ \$ \` (backslash-escaped); a backslash outside quotes escapes the next
// character; a # at the start of a word begins a comment.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cupp::eval {

// Throws syntax_error (column of the opening quote, or of a trailing backslash) when the line
// ends inside a quote or after a lone backslash.
std::vector<std::string> shell_split(std::string_view line);

}  // namespace cupp::eval
