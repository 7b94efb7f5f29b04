// Files in the reply box: chosen with the button, dropped on the form or
// pasted into the text. They travel in the form's file input, so sending
// works the same with or without this script; here they are previewed
// (pictures as thumbnails), can be removed, and are checked against the
// server's limits before anything is sent.

// bind sets up the reply box of the page shown, at load and each time the
// desk puts another conversation in place (panes.js).
function bind() {
  const form = document.getElementById("reply-form");
  const input = document.getElementById("reply-files");
  const list = document.getElementById("reply-previews");
  const problem = document.getElementById("reply-files-error");
  if (!form || !input || !list || !problem) return;
  const box = input.closest(".reply-files");
  const maxBytes = Number(box.dataset.maxBytes), maxFiles = Number(box.dataset.maxFiles);
  let chosen = []; // the files to send, in order

  const size = (n) => (n < 1000 ? `${n} bytes` : n < 1e6 ? `${Math.round(n / 1000)} KB` : `${(n / 1e6).toFixed(1)} MB`);

  // sync puts the chosen files in the input and draws their previews.
  function sync() {
    const dt = new DataTransfer();
    for (const f of chosen) dt.items.add(f);
    input.files = dt.files;
    list.replaceChildren(...chosen.map(preview));
  }

  function preview(f, i) {
    const li = document.createElement("li");
    if (f.type.startsWith("image/")) {
      const img = document.createElement("img");
      img.alt = f.name;
      const reader = new FileReader(); // a data: URL, which the page's policy allows
      reader.onload = () => (img.src = reader.result);
      reader.readAsDataURL(f);
      li.append(img);
    }
    const name = document.createElement("span");
    name.textContent = `${f.name} (${size(f.size)})`;
    const remove = document.createElement("button");
    remove.type = "button";
    remove.className = "secondary";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", `Remove ${f.name}`);
    remove.onclick = () => {
      chosen.splice(i, 1);
      sync();
      input.focus();
    };
    li.append(name, " ", remove);
    return li;
  }

  // add takes new files, refusing those over the limits with a message.
  function add(files) {
    const refused = [];
    for (const f of files) {
      if (f.size > maxBytes) refused.push(`${f.name} is larger than ${size(maxBytes)}.`);
      else if (chosen.length >= maxFiles) refused.push(`A reply can carry at most ${maxFiles} files; ${f.name} was left out.`);
      else chosen.push(f);
    }
    problem.hidden = refused.length === 0;
    problem.textContent = refused.join(" ");
    sync();
  }

  input.addEventListener("change", () => {
    const picked = [...input.files];
    add(picked.filter((f) => !chosen.includes(f)));
  });
  form.addEventListener("paste", (e) => {
    const files = [...(e.clipboardData?.files || [])];
    if (files.length === 0) return; // text pastes as usual
    e.preventDefault();
    add(files);
  });
  form.addEventListener("dragover", (e) => {
    if (![...e.dataTransfer.types].includes("Files")) return;
    e.preventDefault();
    form.classList.add("dropping");
  });
  form.addEventListener("dragleave", (e) => {
    if (!form.contains(e.relatedTarget)) form.classList.remove("dropping");
  });
  form.addEventListener("drop", (e) => {
    if (e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    form.classList.remove("dropping");
    add([...e.dataTransfer.files]);
  });
}

bind();
document.addEventListener("chatsvc:page", bind);
