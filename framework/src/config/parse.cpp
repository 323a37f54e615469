// polydev.yaml's schema (docs/configuration.md), checked node by node so that every error points
// at the line and column of what is wrong.
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <set>
#include <sstream>

#include "io/printable.hpp"
#include "polydev/config.hpp"

namespace polydev {

// One line whatever the parts hold: a message quotes its values already, but yaml-cpp's own texts
// and file names are foreign too.
config_error::config_error(std::string file, int line, int column, const std::string& message)
    : error(detail::printable(file, std::string::npos) + ":" + std::to_string(line) + ":" +
            std::to_string(column) + ": " + detail::printable(message, std::string::npos)),
      file_(std::move(file)),
      line_(line),
      column_(column) {}

const Profile* Config::find_profile(std::string_view name) const {
  for (const Profile& profile : profiles) {
    if (profile.name == name) return &profile;
  }
  return nullptr;
}

namespace {

const char* const kSelectorVariables[] = {"PYOPENCL_TEST", "PYOPENCL_CTX", "CUDA_DEVICE",
                                          "POLYDEV_DEVICES"};

// What a node is, for "found ..." in messages.
std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return detail::quote(node.Scalar());
    default:
      return "nothing";
  }
}

std::string join(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

// Where the documents of a YAML text begin: the mark of each document and of its first node.
// yaml-cpp 0.7's LoadAll never returns for some invalid texts, a lone ',' among them
// (jbeder/yaml-cpp#1040, fixed after 0.8): its parser reads the same empty document again and
// again. Counting the documents with this handler, two at most, bounds the work, and a document
// that begins where the one before it began shows that the parser is stuck.
//
// The same pass bounds what the tree would cost, before yaml-cpp builds it: it counts the nodes
// (a flow list of a million items takes gigabytes as a tree) and refuses tags the schema gives no
// meaning to, each at the node's mark.
class DocumentMarks : public YAML::EventHandler {
 public:
  struct Document {
    YAML::Mark start;
    std::optional<YAML::Mark> first_node;
  };
  /// Thrown out of the parser where the pass stops, so that no more of the text is read; the
  /// caller reports it with its file name.
  struct Refusal {
    YAML::Mark mark;
    std::string what;
    std::string expected;
  };
  std::vector<Document> documents;
  std::size_t nodes = 0;

  void OnDocumentStart(const YAML::Mark& mark) override { documents.push_back({mark, {}}); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, {}); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node(mark, {}); }
  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                const std::string&) override {
    node(mark, tag);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    node(mark, tag);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark, tag);
  }
  void OnMapEnd() override {}

 private:
  // yaml-cpp reports "?" for a plain node without a tag and "!" for a quoted one; a standard tag
  // (!!str) comes resolved, as "tag:yaml.org,2002:str".
  static bool known_tag(const std::string& tag) {
    static const std::set<std::string> standard = {"str",  "int", "float", "bool",
                                                   "null", "map", "seq"};
    const std::string prefix = "tag:yaml.org,2002:";
    if (tag.empty() || tag == "?" || tag == "!") return true;
    return tag.rfind(prefix, 0) == 0 && standard.count(tag.substr(prefix.size())) != 0;
  }

  void node(const YAML::Mark& mark, const std::string& tag) {
    if (!documents.empty() && !documents.back().first_node) documents.back().first_node = mark;
    if (!known_tag(tag)) {
      throw Refusal{mark, "unknown YAML tag " + detail::quote(tag),
                    "no tag, or one of YAML's standard tags (!!str, !!int, !!float, !!bool, "
                    "!!null, !!map, !!seq): polydev.yaml gives no other tag a meaning"};
    }
    if (++nodes > kConfigNodeLimit) {
      throw Refusal{mark,
                    "more than " + std::to_string(kConfigNodeLimit) +
                        " YAML nodes (keys, values and list items); the file is not read "
                        "further",
                    "a configuration of at most " + std::to_string(kConfigNodeLimit) +
                        " nodes (some ten thousand expectations)"};
    }
  }
};

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {}

  Config parse(const std::string& text) {
    YAML::Node root;
    if (text.size() > kConfigFileLimit) {
      fail(YAML::Mark(),
           "the text is " + std::to_string(text.size()) + " bytes, over the limit of " +
               std::to_string(kConfigFileLimit) + " bytes",
           "a configuration of at most " + std::to_string(kConfigFileLimit) + " bytes (1 MiB)");
    }
    try {
      std::istringstream stream(text);
      YAML::Parser parser(stream);
      DocumentMarks marks;
      try {
        while (marks.documents.size() < 2 && parser.HandleNextDocument(marks)) {
        }
      } catch (const DocumentMarks::Refusal& refusal) {
        fail(refusal.mark, refusal.what, refusal.expected);
      }
      if (marks.documents.size() == 2) {
        const DocumentMarks::Document& second = marks.documents[1];
        if (second.start.pos == marks.documents[0].start.pos) {
          fail(second.start, "this is not valid YAML (nothing can be read from here on)",
               "a YAML mapping (see docs/configuration.md)");
        }
        fail(second.first_node.value_or(second.start), "a second YAML document", "one document");
      }
      root = YAML::Load(text);
    } catch (const YAML::ParserException& failure) {
      fail(failure.mark, "this is not valid YAML (" + detail::printable(failure.msg) + ")",
           "a YAML mapping (see docs/configuration.md)");
    }
    Config config;
    config.file = file_;
    if (root.IsNull()) return config;
    if (!root.IsMap()) {
      fail(root.Mark(), "the document is " + describe(root),
           "a mapping with the keys version, profiles, expectations");
    }
    for_each_entry(
        root, "the top level", {"version", "profiles", "expectations"},
        [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
          if (key == "version") {
            check_version(key_node, value);
          } else if (key == "profiles") {
            parse_profiles(key_node, value, config);
          } else {
            parse_expectations(key_node, value, config);
          }
        });
    return config;
  }

 private:
  [[noreturn]] void fail(const YAML::Mark& mark, const std::string& what,
                         const std::string& expected) const {
    throw config_error(file_, mark.line + 1, mark.column + 1, what + "; expected " + expected);
  }

  // Where to point for a value: a null value has no text of its own, so its key is shown.
  static YAML::Mark where(const YAML::Node& key_node, const YAML::Node& value) {
    return value.IsNull() ? key_node.Mark() : value.Mark();
  }

  // Calls `take(key, key node, value)` for each entry of `map`, rejecting keys that are not
  // scalars, not among `allowed`, or repeated (YAML forbids repeated keys; yaml-cpp keeps both).
  template <typename Take>
  void for_each_entry(const YAML::Node& map, const std::string& context,
                      const std::vector<std::string>& allowed, Take take) const {
    std::set<std::string> seen;
    // Range-for binds each entry: the iterator's operator-> would point into a temporary.
    for (const auto& entry : map) {
      const YAML::Node& key_node = entry.first;
      if (!key_node.IsScalar()) {
        fail(key_node.Mark(), "a key in " + context + " is " + describe(key_node),
             "one of " + join(allowed));
      }
      const std::string key = key_node.Scalar();
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        fail(key_node.Mark(), "unknown key " + detail::quote(key) + " in " + context,
             "one of " + join(allowed));
      }
      if (!seen.insert(key).second) {
        fail(key_node.Mark(), "the key " + detail::quote(key) + " appears twice in " + context,
             "each key once");
      }
      take(key, key_node, entry.second);
    }
  }

  // A scalar's text; null, lists and mappings are wrong.
  std::string scalar(const YAML::Node& key_node, const YAML::Node& value, const std::string& what,
                     const std::string& expected) const {
    if (!value.IsScalar()) {
      fail(where(key_node, value), what + " is " + describe(value), expected);
    }
    return value.Scalar();
  }

  std::string non_empty(const YAML::Node& key_node, const YAML::Node& value,
                        const std::string& what, const std::string& expected) const {
    std::string text = scalar(key_node, value, what, expected);
    if (text.empty()) fail(value.Mark(), what + " is empty", expected);
    return text;
  }

  void check_version(const YAML::Node& key_node, const YAML::Node& value) const {
    const std::string text = scalar(key_node, value, "'version'", "1");
    if (text != "1") fail(value.Mark(), "unsupported version " + detail::quote(text), "1");
  }

  void parse_profiles(const YAML::Node& key_node, const YAML::Node& value, Config& config) const {
    if (!value.IsMap()) {
      fail(where(key_node, value), "'profiles' is " + describe(value),
           "a mapping of profile names to profiles, such as 'ci: {PYOPENCL_TEST: portable}'");
    }
    for_each_entry(
        value, "'profiles'", {},
        [&](const std::string& name, const YAML::Node& name_node, const YAML::Node& body) {
          if (name.empty()) fail(name_node.Mark(), "a profile name is empty", "a name");
          config.profiles.push_back(parse_profile(name, name_node, body));
        });
  }

  Profile parse_profile(const std::string& name, const YAML::Node& name_node,
                        const YAML::Node& body) const {
    Profile profile;
    profile.name = name;
    profile.line = name_node.Mark().line + 1;
    const std::string context = "profile " + detail::quote(name);
    if (!body.IsMap()) {
      fail(where(name_node, body), context + " is " + describe(body),
           "a mapping of selector variables (PYOPENCL_TEST, PYOPENCL_CTX, CUDA_DEVICE, "
           "POLYDEV_DEVICES) and 'require'");
    }
    std::vector<std::string> allowed(std::begin(kSelectorVariables), std::end(kSelectorVariables));
    allowed.push_back("require");
    for_each_entry(
        body, context, allowed,
        [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
          if (key == "require") {
            profile.require = parse_require(context, key_node, value);
          } else {
            profile.variables.emplace_back(
                key, scalar(key_node, value, key + " of " + context,
                            "a selector string (write \"\" for an empty one)"));
          }
        });
    return profile;
  }

  std::vector<std::string> parse_require(const std::string& context, const YAML::Node& key_node,
                                         const YAML::Node& value) const {
    const std::string expected = "a list of backends, such as [opencl, cuda]";
    if (!value.IsSequence()) {
      fail(where(key_node, value), "'require' of " + context + " is " + describe(value), expected);
    }
    std::vector<std::string> backends;
    for (const YAML::Node& item : value) {
      std::string backend = item.IsScalar() ? item.Scalar() : std::string();
      std::transform(backend.begin(), backend.end(), backend.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (backend != "opencl" && backend != "cuda") {
        fail(item.Mark(), "unknown backend " + describe(item) + " in 'require' of " + context,
             "opencl or cuda");
      }
      if (std::find(backends.begin(), backends.end(), backend) != backends.end()) {
        fail(item.Mark(), "'" + backend + "' is listed twice in 'require' of " + context,
             "each backend once");
      }
      backends.push_back(backend);
    }
    return backends;
  }

  void parse_expectations(const YAML::Node& key_node, const YAML::Node& value,
                          Config& config) const {
    if (!value.IsSequence()) {
      fail(where(key_node, value), "'expectations' is " + describe(value),
           "a list of entries, such as '- {test: \"Saxpy.*\", skip: \"reason\"}'");
    }
    int number = 0;
    for (const YAML::Node& item : value) {
      config.expectations.push_back(parse_expectation(item, ++number));
    }
  }

  Expectation parse_expectation(const YAML::Node& item, int number) const {
    const std::string context = "expectation " + std::to_string(number);
    if (!item.IsMap()) {
      fail(item.Mark(), context + " is " + describe(item),
           "a mapping with 'test' and 'skip' or 'xfail'");
    }
    Expectation expectation;
    expectation.line = item.Mark().line + 1;
    bool has_test = false;
    std::optional<std::string> kind_key;
    std::optional<YAML::Mark> strict_mark;
    for_each_entry(
        item, context, {"test", "device", "driver", "pocl", "skip", "xfail", "link", "strict"},
        [&](const std::string& key, const YAML::Node& key_node, const YAML::Node& value) {
          const std::string what = "'" + key + "' of " + context;
          if (key == "test") {
            expectation.test =
                glob(key_node, value, what, "a test name pattern such as 'Saxpy.*'", true);
            has_test = true;
          } else if (key == "device") {
            expectation.device =
                glob(key_node, value, what, "a device key or name pattern such as 'opencl_pocl_*'",
                     false);
          } else if (key == "driver" || key == "pocl") {
            (key == "driver" ? expectation.driver : expectation.pocl) =
                version_range(key_node, value, what);
          } else if (key == "skip" || key == "xfail") {
            if (kind_key) {
              fail(key_node.Mark(), context + " has both '" + *kind_key + "' and '" + key + "'",
                   "one of them");
            }
            kind_key = key;
            expectation.kind = key == "skip" ? ExpectationKind::skip : ExpectationKind::xfail;
            expectation.reason = non_empty(key_node, value, what, "the reason, in words");
          } else if (key == "link") {
            expectation.link = non_empty(key_node, value, what, "a link to the issue");
          } else {
            const std::string text = scalar(key_node, value, what, "true or false");
            if (value.Tag() != "?" || (text != "true" && text != "false")) {
              fail(value.Mark(), what + " is " + describe(value), "true or false");
            }
            expectation.strict = text == "true";
            strict_mark = key_node.Mark();
          }
        });
    if (!has_test) {
      fail(item.Mark(), context + " has no 'test'", "a test name pattern such as 'Saxpy.*'");
    }
    if (!kind_key) {
      fail(item.Mark(), context + " has neither 'skip' nor 'xfail'",
           "one of them, with the reason as its value");
    }
    if (strict_mark && expectation.kind == ExpectationKind::skip) {
      fail(*strict_mark, "'strict' in " + context + ", which skips", "'strict' with 'xfail' only");
    }
    return expectation;
  }

  Glob glob(const YAML::Node& key_node, const YAML::Node& value, const std::string& what,
            const std::string& expected, bool test_name) const {
    const std::string text = non_empty(key_node, value, what, expected);
    try {
      Glob pattern(text);
      // Test names always hold a '.' between suite and test: a pattern that cannot match one is
      // a mistake (a suite name alone, say), not a rule that never applies.
      if (test_name && text.find_first_of(".*?[") == std::string::npos) {
        fail(value.Mark(),
             what + " " + detail::quote(text) + " can never match a test name 'Suite.Test'",
             detail::quote(text + ".*") + " for every test of a suite, or 'Suite.Test'");
      }
      return pattern;
    } catch (const config_error&) {
      throw;
    } catch (const error& failure) {
      fail(value.Mark(), what + ": " + failure.what(), expected);
    }
  }

  VersionRange version_range(const YAML::Node& key_node, const YAML::Node& value,
                             const std::string& what) const {
    const std::string expected = "a version range such as '>=3.1,<5'";
    const std::string text = non_empty(key_node, value, what, expected);
    try {
      return VersionRange(text);
    } catch (const error& failure) {
      fail(value.Mark(), what + ": " + failure.what(), expected);
    }
  }

  std::string file_;
};

}  // namespace

Config parse_config(const std::string& text, const std::string& file_name) {
  return Parser(file_name).parse(text);
}

}  // namespace polydev
