// Finding polydev.yaml and selecting the profile, once per process.
#include "io/printable.hpp"
#include "io/regular_file.hpp"
#include "polydev/config.hpp"
#include "polydev/detail/environment.hpp"

namespace polydev {

namespace fs = std::filesystem;

Config load_config_file(const fs::path& path) {
  std::string text;
  try {
    text = detail::read_regular_file(path.string(), kConfigFileLimit);
  } catch (const detail::file_error& failure) {
    throw error("cannot read the configuration file " + detail::printable(failure.what()));
  }
  return parse_config(text, path.string());
}

std::optional<fs::path> find_config_file(const std::optional<std::string>& polydev_config,
                                         const fs::path& start) {
  std::error_code ignored;
  if (polydev_config) {
    if (polydev_config->empty()) return std::nullopt;
    const fs::path path(*polydev_config);
    // symlink_status: a dangling link or a link loop exists, and the reader says which it is.
    if (!fs::exists(fs::symlink_status(path, ignored))) {
      throw error("POLYDEV_CONFIG=" + detail::quote(*polydev_config) +
                  ": no such file; expected the path of a polydev.yaml file, or "
                  "POLYDEV_CONFIG empty for no configuration");
    }
    if (fs::is_directory(fs::status(path, ignored))) {
      throw error("POLYDEV_CONFIG=" + detail::quote(*polydev_config) +
                  " is a directory; expected a file, such as " +
                  detail::printable((path / "polydev.yaml").string()));
    }
    return path;
  }
  for (fs::path directory = start; !directory.empty(); directory = directory.parent_path()) {
    const fs::path candidate = directory / "polydev.yaml";
    // A directory of that name is not the file, but anything else is meant to be it: a FIFO or a
    // dangling link is found here and reported by the reader, not passed over for a file above.
    const fs::file_status status = fs::symlink_status(candidate, ignored);
    if (fs::exists(status) && !fs::is_directory(fs::status(candidate, ignored))) return candidate;
    if (directory == directory.parent_path()) break;
  }
  return std::nullopt;
}

Configuration configure(const std::optional<std::string>& polydev_config,
                        const std::optional<std::string>& polydev_profile, const fs::path& start) {
  Configuration configuration;
  if (const auto path = find_config_file(polydev_config, start)) {
    configuration.config = load_config_file(*path);
  }
  if (!polydev_profile || polydev_profile->empty()) return configuration;
  const std::string setting = "POLYDEV_PROFILE=" + detail::quote(*polydev_profile);
  if (!configuration.config) {
    throw error(setting + ", but there is no configuration file: " +
                (polydev_config
                     ? std::string("POLYDEV_CONFIG is empty")
                     : "no polydev.yaml in " + detail::quote(start.string()) + " or above") +
                "; expected a polydev.yaml that defines the profile, or POLYDEV_CONFIG naming one");
  }
  const Config& config = *configuration.config;
  if (const Profile* profile = config.find_profile(*polydev_profile)) {
    configuration.profile = *profile;
    return configuration;
  }
  // The names a file defines, each quoted and cut, and not more of them than a person reads.
  constexpr std::size_t kNamesShown = 20;
  std::string known;
  for (std::size_t i = 0; i < config.profiles.size() && i < kNamesShown; ++i) {
    known += (known.empty() ? "" : ", ") +
             detail::printable(config.profiles[i].name, detail::kQuotedBytes);
  }
  if (config.profiles.size() > kNamesShown) {
    known += " and " + std::to_string(config.profiles.size() - kNamesShown) + " more";
  }
  throw error(setting + ": " + detail::printable(config.file) +
              " defines no such profile; expected " +
              (known.empty() ? std::string("a profile under 'profiles:' (it defines none)")
                             : "one of: " + known));
}

std::vector<std::pair<std::string, std::string>> profile_environment(const Profile& profile) {
  std::vector<std::pair<std::string, std::string>> variables = profile.variables;
  if (!profile.require.empty()) {
    std::string backends;
    for (const std::string& backend : profile.require) {
      backends += (backends.empty() ? "" : ",") + backend;
    }
    variables.emplace_back("POLYDEV_REQUIRE_DEVICES", backends);
  }
  return variables;
}

const ProcessConfig& process_config() {
  static const ProcessConfig state = [] {
    ProcessConfig result;
    try {
      std::error_code no_directory;
      const fs::path start = fs::current_path(no_directory);  // empty: nothing to walk up from
      Configuration configuration =
          configure(detail::environment_variable("POLYDEV_CONFIG"),
                    detail::environment_variable("POLYDEV_PROFILE"), start);
      if (configuration.profile) {
        result.profile = configuration.profile->name;
        result.profile_variables = profile_environment(*configuration.profile);
      }
      result.config = std::move(configuration.config);
    } catch (const error& failure) {
      result.error = failure.what();
    }
    return result;
  }();
  return state;
}

}  // namespace polydev
