-- Escape class: a view kept past its call.
KEEP = {}
engine.rule { id = "retained-view.probe", kind = "demo-item", severity = "error",
  summary = "keeps a document view for later", check = function(doc)
    if KEEP.doc then return KEEP.doc.size end
    KEEP.doc = doc
  end }
