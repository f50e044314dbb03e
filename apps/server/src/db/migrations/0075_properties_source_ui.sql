-- The Feature Flags screen shows where each flag comes from (spec 002 §3): 'local' for the server's properties file,
-- 'UI' for flags people create. Rows written without a source (the demo seed, API clients that leave it out) were
-- shown with an empty Source, so the column defaults to 'UI' and the existing rows without one say so too.
alter table properties alter column source set default 'UI';

update properties set source = 'UI' where source is null;

-- A name is the primary key: one past the b-tree's row size failed as a 500. People's flags are held to the 255
-- characters of the other names the console stores, which the form checks before it submits; the server's own
-- properties file is not refused at start over a long name. NOT VALID leaves any longer existing row in place.
alter table properties
  add constraint properties_name_length check (source = 'local' or char_length(name) <= 255) not valid;
