// SPDX-License-Identifier: GPL-3.0-or-later
// A read-only view of a scratch folder, for the read-only review tests (store,
// CLI, GUI). As root, chmod stops nobody, so the view is a read-only bind
// mount in a mount namespace private to this process: it vanishes with the
// process, even one that crashes, and nobody else sees it. As any other user
// it is the folder itself, with write permission taken from it and its files
// (given back when the view goes). Where neither works, problem() says why
// and the test skips with that reason.
#pragma once
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace crucible::test_support {

class ReadOnlyView {
public:
  explicit ReadOnlyView(const std::filesystem::path& folder) : folder_(folder) {
    if (::geteuid() != 0) {
      setWritable(false);
      path_ = folder_;
      return;
    }
    problem_ = privateMountNamespace();
    if (!problem_.empty()) return;
    std::string pattern = (std::filesystem::temp_directory_path() / "crucible-ro-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      problem_ = std::string("mkdtemp: ") + std::strerror(errno);
      return;
    }
    mountPoint_ = pattern;
    if (::mount(folder_.c_str(), mountPoint_.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      problem_ = std::string("bind mount: ") + std::strerror(errno);
      return;
    }
    mounted_ = true;
    if (::mount(nullptr, mountPoint_.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) != 0) {
      problem_ = std::string("remount read-only: ") + std::strerror(errno);
      return;
    }
    path_ = mountPoint_;
  }

  ~ReadOnlyView() {
    if (mounted_) ::umount2(mountPoint_.c_str(), MNT_DETACH);
    if (!mountPoint_.empty()) ::rmdir(mountPoint_.c_str());
    if (::geteuid() != 0) setWritable(true);
  }
  ReadOnlyView(const ReadOnlyView&) = delete;
  ReadOnlyView& operator=(const ReadOnlyView&) = delete;

  // "" when the view works; else why not (for GTEST_SKIP).
  const std::string& problem() const { return problem_; }
  // The folder as this process sees it read-only.
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
  // Once per process: mounts made afterwards stay in this process (and its children).
  static std::string privateMountNamespace() {
    static const std::string problem = [] {
      if (::unshare(CLONE_NEWNS) != 0)
        return "cannot make a read-only mount here: unshare(CLONE_NEWNS): " + std::string(std::strerror(errno));
      if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return "cannot make a read-only mount here: mount --make-rprivate /: " + std::string(std::strerror(errno));
      return std::string();
    }();
    return problem;
  }

  void setWritable(bool writable) {
    std::error_code ec;
    using std::filesystem::perms;
    for (const auto& entry : std::filesystem::directory_iterator(folder_, ec))
      if (entry.is_regular_file(ec))
        std::filesystem::permissions(entry.path(), perms::owner_write,
                                     writable ? std::filesystem::perm_options::add : std::filesystem::perm_options::remove, ec);
    if (writable)
      std::filesystem::permissions(folder_, perms::owner_write, std::filesystem::perm_options::add, ec);
    else
      std::filesystem::permissions(folder_, perms::owner_write | perms::group_write | perms::others_write,
                                   std::filesystem::perm_options::remove, ec);
  }

  std::filesystem::path folder_;
  std::filesystem::path path_;
  std::string mountPoint_;
  bool mounted_ = false;
  std::string problem_;
};

}  // namespace crucible::test_support
